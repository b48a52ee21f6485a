package h2suite

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/wirelab/wirelab/internal/matrix"
)

// CaseVerdict is one of wirelab's own cases as h2check reports it.
type CaseVerdict struct {
	Case        string `json:"case"`
	Requirement string `json:"requirement"`
	Result      string `json:"result"` // passed, failed, skipped
	Reason      string `json:"reason"`
}

// Matrix is the verdict's result word in the matrix: a skipped case (the server lacks what
// the case needs) is unsupported, not passed.
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
// with an outcome h2check does not write, is an error naming the file.
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
		if v.Result != CasePassed && v.Result != CaseFailed && v.Result != CaseSkipped {
			return CaseVerdict{}, fmt.Errorf("%s: case %s: result %q", path, name, v.Result)
		}
		return v, nil
	}
	return CaseVerdict{}, fmt.Errorf("%s: no verdict for case %s", path, name)
}
