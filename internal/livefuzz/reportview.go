package livefuzz

import (
	"fmt"
	"path/filepath"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/quictrace"
	"github.com/wirelab/wirelab/internal/reportview"
)

// ReportView implements reportview.Viewer: a row per target, a column per campaign; each
// cell's sub-cases are its oracles and rules, its trace QUIC on the server's port.
func (*Suite) ReportView() reportview.View { return view{} }

type view struct{ reportview.Plain }

func (view) Title() string { return "Live fuzzing" }

func (view) Legend() string {
	return "Rows are the fuzzed servers, columns the campaigns; a cell's sub-cases are the crash, liveness, memory, CPU, RFC-rule and differential oracles (docs/fuzz-live.md)."
}

func (view) Cases(root string) []reportview.Case {
	cf, err := LoadCampaigns(filepath.Join(root, "conformance", Name, "campaigns.yml"))
	if err != nil {
		return nil
	}
	out := make([]reportview.Case, len(cf.Campaigns))
	for i, c := range cf.Campaigns {
		out[i] = reportview.Case{Name: c.Name, Abbr: c.Abbr, Desc: c.Description}
	}
	return out
}

// Trace implements reportview.View: QUIC on the server's port.
func (view) Trace(matrix.Result) reportview.Trace { return reportview.QUIC(quictrace.ServerPort) }

func (view) Rerun(r matrix.Result) string {
	return fmt.Sprintf("wirelab %s --target %s --campaigns %s", Name, r.Server, r.Case)
}
