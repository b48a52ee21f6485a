package h2suite

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"

	"github.com/wirelab/wirelab/conformance/h2"
	"github.com/wirelab/wirelab/internal/matrix"
)

// CaseVerdict is one of wirelab's own cases as h2check reports it.
type CaseVerdict struct {
	Case        string `json:"case"`
	Requirement string `json:"requirement"`
	Result      string `json:"result"` // passed, failed, skipped
	Skip        string `json:"skip"`   // skipped only: the server behaviour that left nothing to judge
	Reason      string `json:"reason"`
}

// SkippedAtRunTime reports a case that ran and found nothing to judge because of how the server
// behaved (Skip names it): unlike a cell the manifests rule out before it runs, a baseline that
// expected a pass should count it against the server.
func (v CaseVerdict) SkippedAtRunTime() bool { return v.Result == CaseSkipped }

// Matrix is the verdict's result word in the matrix. The matrix has no word yet for a case
// skipped at run time (SkippedAtRunTime): it is unsupported, not passed.
func (v CaseVerdict) Matrix() string {
	switch v.Result {
	case CasePassed:
		return matrix.Succeeded
	case CaseSkipped:
		return matrix.Unsupported
	}
	return matrix.Failed
}

// ReadH2checkReport finds name's verdict in h2check's report.json. A report without it, or
// with an outcome or skip cause h2check does not write, is an error naming the file.
func ReadH2checkReport(path, name string) (CaseVerdict, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return CaseVerdict{}, err
	}
	var rep struct {
		Cases []CaseVerdict `json:"cases"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		return CaseVerdict{}, fmt.Errorf("%s: not an h2check report: %v", path, err)
	}
	for _, v := range rep.Cases {
		if v.Case != name {
			continue
		}
		switch {
		case v.Result != CasePassed && v.Result != CaseFailed && v.Result != CaseSkipped:
			return CaseVerdict{}, fmt.Errorf("%s: case %s: result %q", path, name, v.Result)
		case v.Result == CaseSkipped && !slices.Contains(h2.SkipCauses, v.Skip):
			return CaseVerdict{}, fmt.Errorf("%s: case %s: skipped with skip %q, want one of %v", path, name, v.Skip, h2.SkipCauses)
		case v.Result != CaseSkipped && v.Skip != "":
			return CaseVerdict{}, fmt.Errorf("%s: case %s: result %s with skip %q", path, name, v.Result, v.Skip)
		}
		return v, nil
	}
	return CaseVerdict{}, fmt.Errorf("%s: no verdict for case %s", path, name)
}
