package h2suite

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/wirelab/wirelab/internal/matrix"
)

// UploadReport is h2upload's upload.json: each repetition's goodput of one protocol.
type UploadReport struct {
	Proto      string      `json:"proto"` // h2 or h1
	Size       int64       `json:"size"`
	Reps       []UploadRep `json:"reps"`
	MedianMbps float64     `json:"median_mbps"`
}

// UploadRep is one upload on a fresh connection.
type UploadRep struct {
	Seconds float64         `json:"seconds"`
	Mbps    float64         `json:"mbps"`
	OK      bool            `json:"ok"`
	Reason  string          `json:"reason"`
	H2      json.RawMessage `json:"h2,omitempty"` // the server's flow control as the client met it
}

// ReadUpload reads upload.json; a report without repetitions is an error naming the file.
func ReadUpload(path string) (UploadReport, error) {
	var u UploadReport
	data, err := os.ReadFile(path)
	if err != nil {
		return u, err
	}
	if err := json.Unmarshal(data, &u); err != nil {
		return u, fmt.Errorf("%s: not an h2upload report: %v", path, err)
	}
	if len(u.Reps) == 0 {
		return u, fmt.Errorf("%s: no repetitions", path)
	}
	return u, nil
}

// Verdict is the section's result: succeeded when every repetition uploaded the whole body
// (the server answered its byte count); the values are each repetition's Mbit/s, the details
// their median.
func (u UploadReport) Verdict() (result, reason string, values []float64, details string) {
	var bad []string
	for i, r := range u.Reps {
		if !r.OK {
			bad = append(bad, fmt.Sprintf("r%d: %s", i+1, r.Reason))
			continue
		}
		values = append(values, r.Mbps)
	}
	details = fmt.Sprintf("%s upload of %d bytes: median %.1f Mbit/s over %d of %d repetitions", u.Proto, u.Size, Median(values), len(values), len(u.Reps))
	if len(bad) > 0 {
		return matrix.Failed, fmt.Sprintf("%d of %d uploads failed; %s", len(bad), len(u.Reps), strings.Join(bad, "; ")), values, details
	}
	return matrix.Succeeded, "", values, details
}

// Median of xs (0 for none).
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}
