package wtsuite

import (
	"fmt"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/quictrace"
	"github.com/wirelab/wirelab/internal/reportview"
)

// ReportView implements reportview.Viewer: upstream's layout (a table per case, clients in rows,
// servers in columns), each cell's trace decoded as QUIC with its HTTP/3 and WebTransport streams.
func (*Suite) ReportView() reportview.View { return view{} }

type view struct{ reportview.Plain }

func (view) Title() string { return "WebTransport interop" }

func (view) Legend() string {
	return "One table per test case: rows are clients, columns servers; the letters are the case's (upstream's cases, docs/webtransport.md)."
}

func (view) Cases(root string) []reportview.Case {
	cs, err := LoadCases(defaultCasesFile(root))
	if err != nil {
		return nil
	}
	out := make([]reportview.Case, len(cs))
	for i, c := range cs {
		out[i] = reportview.Case{Name: c.Name, Abbr: c.Abbr, Desc: c.Description}
	}
	return out
}

func (view) Layout([]matrix.Result) reportview.Layout { return reportview.ClientRows() }

// Trace implements reportview.View: QUIC on the server's port.
func (view) Trace(matrix.Result) reportview.Trace { return reportview.QUIC(quictrace.ServerPort) }

func (view) Rerun(r matrix.Result) string {
	return fmt.Sprintf("wirelab %s --servers %s --clients %s --tests %s", Name, r.Server, r.Client, r.Case)
}
