package benchsuite

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Download is one line of the client's bench.jsonl: the fields of curl's -w '%{json}' the
// bench reads (times in seconds, from the start of the transfer: name lookup, connect and
// handshake included). A QUIC stack's own client (images/endpoint/bench-client.sh) writes the
// same names where they mean the same, no times and no status, but the SHA-256 of the body it
// saved and the folder of the download's qlog, which the times are read from (TimesFromQlogs).
type Download struct {
	URL               string  `json:"url_effective"`
	HTTPVersion       string  `json:"http_version"`
	ResponseCode      int     `json:"response_code"`
	SizeDownload      int64   `json:"size_download"`
	TimeStartTransfer float64 `json:"time_starttransfer"`
	TimeTotal         float64 `json:"time_total"`
	ExitCode          int     `json:"exitcode"`
	ErrorMsg          string  `json:"errormsg"`
	SHA256            string  `json:"sha256"`
	Qlog              string  `json:"qlog"` // relative to the client's log folder
	// NetLog and MozLog are a browser's (images/browser/driver): its own log of the download
	// (Chromium's NetLog, Firefox's HTTP log), which the times and the HTTP version are read
	// from (TimesFromBrowserLogs); ClientCPUms the browser's container's CPU time over the
	// download.
	NetLog      string  `json:"netlog"`
	MozLog      string  `json:"mozlog"`
	ClientCPUms float64 `json:"client_cpu_ms"`
	// TimesError is why the times could not be read from the client's qlog or own log (not in the file).
	TimesError string `json:"-"`
}

// TimesFromBrowserLogs fills in the times and HTTP version of the downloads a browser logged
// (clientDir: the client's log folder), and holds the log's body bytes to the page's count;
// where that fails, the download keeps the reason and fails Verify.
func TimesFromBrowserLogs(ds []Download, clientDir string) {
	for i := range ds {
		if ds[i].ExitCode != 0 {
			continue
		}
		var kind, file string
		var read func(path, rawURL string) (browserTimes, error)
		switch {
		case ds[i].NetLog != "":
			kind, file, read = "NetLog", ds[i].NetLog, NetLogTimes
		case ds[i].MozLog != "":
			kind, file, read = "HTTP log", ds[i].MozLog, MozLogTimes
		default:
			continue
		}
		path := filepath.Join(clientDir, filepath.Clean("/"+file)) // stays inside clientDir
		bt, err := read(path, ds[i].URL)
		switch {
		case err != nil:
			ds[i].TimesError = kind + ": " + err.Error()
		case bt.Bytes != ds[i].SizeDownload:
			ds[i].TimesError = fmt.Sprintf("%s: %s: %d body bytes read, the page counted %d", kind, path, bt.Bytes, ds[i].SizeDownload)
		default:
			ds[i].TimeStartTransfer, ds[i].TimeTotal, ds[i].HTTPVersion = bt.TTFB, bt.Total, bt.HTTPVersion
		}
	}
}

// TimesFromQlogs fills in the times of the downloads timed by a qlog (clientDir: the client's
// log folder); where that fails, the download keeps the reason and fails Verify.
func TimesFromQlogs(ds []Download, clientDir string) {
	for i := range ds {
		if ds[i].Qlog == "" || ds[i].ExitCode != 0 {
			continue
		}
		dir := filepath.Join(clientDir, filepath.Clean("/"+ds[i].Qlog)) // stays inside clientDir
		var err error
		if ds[i].TimeStartTransfer, ds[i].TimeTotal, err = QlogTimes(dir); err != nil {
			ds[i].TimesError = err.Error()
		}
	}
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

// Verify checks one download of size against what the protocol promises: the client succeeded,
// the server answered 200 (curl) or the saved body is the object itself (object: its SHA-256;
// a client that saves the body), over the protocol's HTTP version, and exactly size bytes
// arrived. The error is one line saying what did not hold.
func Verify(d Download, size Size, p Protocol, object string) error {
	switch {
	case d.ExitCode != 0:
		return fmt.Errorf("%s over %s: client exit %d: %s", size.Name, p.Name, d.ExitCode, strings.TrimSpace(d.ErrorMsg))
	case d.TimesError != "":
		return fmt.Errorf("%s over %s: no times from the client's log: %s", size.Name, p.Name, d.TimesError)
	case d.SHA256 == "" && d.ResponseCode != 200:
		return fmt.Errorf("%s over %s: HTTP status %d, want 200", size.Name, p.Name, d.ResponseCode)
	case d.SHA256 != "" && d.SHA256 != object:
		return fmt.Errorf("%s over %s: the body saved is not the object (SHA-256 %.12s, want %.12s)", size.Name, p.Name, d.SHA256, object)
	case d.HTTPVersion != p.HTTPVersion:
		return fmt.Errorf("%s over %s: the client spoke HTTP/%s, want HTTP/%s", size.Name, p.Name, d.HTTPVersion, p.HTTPVersion)
	case d.SizeDownload != size.Bytes:
		return fmt.Errorf("%s over %s: %d bytes arrived, want %d", size.Name, p.Name, d.SizeDownload, size.Bytes)
	case d.TimeTotal <= 0 || d.TimeStartTransfer <= 0 || d.TimeStartTransfer > d.TimeTotal:
		return fmt.Errorf("%s over %s: times ttfb %.6f s, total %.6f s: want 0 < ttfb <= total", size.Name, p.Name, d.TimeStartTransfer, d.TimeTotal)
	}
	return nil
}

// VerifyAll pairs the downloads with the sizes requested, in order, and verifies each (objects:
// SHA-256 by size name): a missing download (the client never wrote its line) fails like a
// wrong one.
func VerifyAll(ds []Download, sizes []Size, p Protocol, objects map[string]string) error {
	for i, s := range sizes {
		if i >= len(ds) {
			return fmt.Errorf("%s over %s: no download recorded (%d of %d in bench.jsonl)", s.Name, p.Name, len(ds), len(sizes))
		}
		if !strings.HasSuffix(ds[i].URL, "/"+s.File()) {
			return fmt.Errorf("%s over %s: download %d is %s, want .../%s", s.Name, p.Name, i+1, ds[i].URL, s.File())
		}
		if err := Verify(ds[i], s, p, objects[s.Name]); err != nil {
			return err
		}
	}
	return nil
}
