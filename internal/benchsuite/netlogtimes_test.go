package benchsuite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/gzfixture"
)

// testdata/netlog holds two NetLogs Chromium 156 wrote here (make bench, nginx, lte, one 1 KB
// download each, run brb1): over h2 and over h3.
func netLogFixture(t *testing.T, name string) []byte {
	return gzfixture.Read(t, filepath.Join("testdata", "netlog", name+".json.gz"))
}

// a browser's client folder: its bench.jsonl line and the log it names, written as file (a
// Firefox HTTP log by its .moz_log name, else a Chromium NetLog)
func browserDownload(t *testing.T, file string, log []byte, d Download) (string, []Download) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, file), log, 0o600); err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(file, ".moz_log") {
		d.MozLog = file
	} else {
		d.NetLog = file
	}
	return dir, []Download{d}
}

const netLogURL = "https://server4:443/1KB.bin"

// The times and the HTTP version come from the request's own events.
func TestNetLogTimes(t *testing.T) {
	for name, version := range map[string]string{"chromium-h2-1KB": "2", "chromium-h3-1KB": "3"} {
		dir, ds := browserDownload(t, "netlog-bench-1.json", netLogFixture(t, name), Download{URL: netLogURL, SizeDownload: 1000, SHA256: "ab"})
		TimesFromBrowserLogs(ds, dir)
		d := ds[0]
		if d.TimesError != "" || d.HTTPVersion != version || d.TimeStartTransfer <= 0 || d.TimeTotal < d.TimeStartTransfer || d.TimeTotal > 2 {
			t.Errorf("%s: version %q, ttfb %.3f s, total %.3f s (%s)", name, d.HTTPVersion, d.TimeStartTransfer, d.TimeTotal, d.TimesError)
		}
		// and the download verifies over its protocol (the body's hash is the page's)
		if err := Verify(d, Size{Name: "1KB", Bytes: 1000}, Protocol{Name: "h" + version, HTTPVersion: version}, "ab"); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// Each way a NetLog cannot time the download is the download's error, naming the file.
func TestNetLogTimesFail(t *testing.T) {
	h3 := netLogFixture(t, "chromium-h3-1KB")
	for want, c := range map[string]struct {
		netlog []byte
		d      Download
	}{
		"not a whole NetLog":                         {h3[:len(h3)/2], Download{URL: netLogURL, SizeDownload: 1000}},
		"no request for https://server4:443/1MB":     {h3, Download{URL: "https://server4:443/1MB.bin", SizeDownload: 1000}},
		"1000 body bytes read, the page counted 999": {h3, Download{URL: netLogURL, SizeDownload: 999}},
	} {
		dir, ds := browserDownload(t, "netlog-bench-1.json", c.netlog, c.d)
		TimesFromBrowserLogs(ds, dir)
		if !strings.Contains(ds[0].TimesError, want) || !strings.Contains(ds[0].TimesError, filepath.Join(dir, "netlog-bench-1.json")) {
			t.Errorf("want %q naming the file, got %q", want, ds[0].TimesError)
		}
		if err := Verify(ds[0], Size{Name: "1KB", Bytes: 1000}, Protocol{Name: "h3", HTTPVersion: "3"}, ""); err == nil {
			t.Errorf("%s: the download verified", want)
		}
	}
	// an h2 download in an h3 cell fails on the version the NetLog names
	dir, ds := browserDownload(t, "netlog-bench-1.json", netLogFixture(t, "chromium-h2-1KB"), Download{URL: netLogURL, SizeDownload: 1000, SHA256: "ab"})
	TimesFromBrowserLogs(ds, dir)
	if err := Verify(ds[0], Size{Name: "1KB", Bytes: 1000}, Protocol{Name: "h3", HTTPVersion: "3"}, "ab"); err == nil || !strings.Contains(err.Error(), "spoke HTTP/2, want HTTP/3") {
		t.Errorf("h2 as h3: %v", err)
	}
}
