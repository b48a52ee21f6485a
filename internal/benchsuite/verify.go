package benchsuite

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Download is one line of the client's bench.jsonl: the fields of curl's -w '%{json}' the
// bench reads (times in seconds, from the start of the transfer: name lookup, connect and
// handshake included).
type Download struct {
	URL               string  `json:"url_effective"`
	HTTPVersion       string  `json:"http_version"`
	ResponseCode      int     `json:"response_code"`
	SizeDownload      int64   `json:"size_download"`
	TimeStartTransfer float64 `json:"time_starttransfer"`
	TimeTotal         float64 `json:"time_total"`
	ExitCode          int     `json:"exitcode"`
	ErrorMsg          string  `json:"errormsg"`
}

// ReadDownloads reads bench.jsonl; a line that is not curl's JSON is an error naming the line.
func ReadDownloads(path string) ([]Download, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Download
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var d Download
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			return nil, fmt.Errorf("%s:%d: not curl's -w %%{json}: %v", path, n, err)
		}
		out = append(out, d)
	}
	return out, sc.Err()
}

// Verify checks one download of size against what the protocol promises: curl succeeded, the
// server answered 200 over the protocol's HTTP version, and exactly size bytes arrived. The error
// is one line saying what did not hold.
func Verify(d Download, size Size, p Protocol) error {
	switch {
	case d.ExitCode != 0:
		return fmt.Errorf("%s over %s: curl exit %d: %s", size.Name, p.Name, d.ExitCode, strings.TrimSpace(d.ErrorMsg))
	case d.ResponseCode != 200:
		return fmt.Errorf("%s over %s: HTTP status %d, want 200", size.Name, p.Name, d.ResponseCode)
	case d.HTTPVersion != p.HTTPVersion:
		return fmt.Errorf("%s over %s: curl spoke HTTP/%s, want HTTP/%s", size.Name, p.Name, d.HTTPVersion, p.HTTPVersion)
	case d.SizeDownload != size.Bytes:
		return fmt.Errorf("%s over %s: %d bytes arrived, want %d", size.Name, p.Name, d.SizeDownload, size.Bytes)
	case d.TimeTotal <= 0 || d.TimeStartTransfer <= 0 || d.TimeStartTransfer > d.TimeTotal:
		return fmt.Errorf("%s over %s: times ttfb %.6f s, total %.6f s: want 0 < ttfb <= total", size.Name, p.Name, d.TimeStartTransfer, d.TimeTotal)
	}
	return nil
}

// VerifyAll pairs the downloads with the sizes requested, in order, and verifies each: a missing
// download (curl never wrote its line) fails like a wrong one.
func VerifyAll(ds []Download, sizes []Size, p Protocol) error {
	for i, s := range sizes {
		if i >= len(ds) {
			return fmt.Errorf("%s over %s: no download recorded (%d of %d in bench.jsonl)", s.Name, p.Name, len(ds), len(sizes))
		}
		if !strings.HasSuffix(ds[i].URL, "/"+s.File()) {
			return fmt.Errorf("%s over %s: download %d is %s, want .../%s", s.Name, p.Name, i+1, ds[i].URL, s.File())
		}
		if err := Verify(ds[i], s, p); err != nil {
			return err
		}
	}
	return nil
}
