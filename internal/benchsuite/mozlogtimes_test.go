package benchsuite

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/gzfixture"
)

// testdata/mozlog holds two HTTP logs Firefox 153 ESR wrote here (make bench, nginx,
// simple-p2p, one 100 KB download each, run ffx6, repetition 2): over h2 and over h3. In both,
// later requests to the driver reuse the download's transaction address (Firefox frees and
// reallocates it), which a reader keyed by address alone would mix up.
func mozLogFixture(t *testing.T, name string) []byte {
	return gzfixture.Read(t, filepath.Join("testdata", "mozlog", name+".log.gz"))
}

// a Firefox client folder: its bench.jsonl line and the HTTP log it names
func firefoxDownload(t *testing.T, log []byte, d Download) (string, []Download) {
	t.Helper()
	return browserDownload(t, "firefox-bench-1.log.moz_log", log, d)
}

const mozLogURL = "https://server4:443/100KB.bin"

var size100KB = Size{Name: "100KB", Bytes: 100000}

// The times and the HTTP version come from the download's own transaction.
func TestMozLogTimes(t *testing.T) {
	for name, version := range map[string]string{"firefox-h2-100KB": "2", "firefox-h3-100KB": "3"} {
		dir, ds := firefoxDownload(t, mozLogFixture(t, name), Download{URL: mozLogURL, SizeDownload: 100000, SHA256: "ab"})
		TimesFromBrowserLogs(ds, dir)
		d := ds[0]
		if d.TimesError != "" || d.HTTPVersion != version || d.TimeStartTransfer <= 0 || d.TimeTotal < d.TimeStartTransfer || d.TimeTotal > 2 {
			t.Errorf("%s: version %q, ttfb %.6f s, total %.6f s (%s)", name, d.HTTPVersion, d.TimeStartTransfer, d.TimeTotal, d.TimesError)
		}
		if err := Verify(d, size100KB, Protocol{Name: "h" + version, HTTPVersion: version}, "ab"); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// Each way an HTTP log cannot time the download is the download's error, naming the file.
func TestMozLogTimesFail(t *testing.T) {
	h3 := mozLogFixture(t, "firefox-h3-100KB")
	// cut after the first body bytes past half the file: the browser was stopped mid-download
	half := regexp.MustCompile(`mContentRead=[5-9]\d{4} `).FindIndex(h3)
	if half == nil {
		t.Fatal("fixture: no body bytes past 50000")
	}
	cut := h3[:half[1]+bytes.IndexByte(h3[half[1]:], '\n')+1]
	for want, c := range map[string]struct {
		log []byte
		d   Download
	}{
		"of its 100000 bytes (was the browser stopped mid-download?)":  {cut, Download{URL: mozLogURL, SizeDownload: 100000}},
		"no request for https://server4:443/1MB.bin":                   {h3, Download{URL: "https://server4:443/1MB.bin", SizeDownload: 100000}},
		"100000 body bytes read, the page counted 99999":               {h3, Download{URL: mozLogURL, SizeDownload: 99999}},
		"has status 404, want 200":                                     {bytes.Replace(h3, []byte("  HTTP/3 200 "), []byte("  HTTP/3 404 "), 1), Download{URL: mozLogURL, SizeDownload: 100000}},
		"2 transactions answered":                                      {append(append([]byte{}, h3...), h3...), Download{URL: mozLogURL, SizeDownload: 100000}},
		"(HttpChannelParent RecvAsyncOpen; MOZ_LOG without nsHttp:4?)": {regexp.MustCompile(`(?m)^.* D/nsHttp .*\n`).ReplaceAll(h3, nil), Download{URL: mozLogURL, SizeDownload: 100000}},
	} {
		dir, ds := firefoxDownload(t, c.log, c.d)
		TimesFromBrowserLogs(ds, dir)
		if !strings.Contains(ds[0].TimesError, want) || !strings.Contains(ds[0].TimesError, filepath.Join(dir, "firefox-bench-1.log.moz_log")) {
			t.Errorf("want %q naming the file, got %q", want, ds[0].TimesError)
		}
		if err := Verify(ds[0], size100KB, Protocol{Name: "h3", HTTPVersion: "3"}, ""); err == nil {
			t.Errorf("%s: the download verified", want)
		}
	}
	// an h2 download in an h3 cell fails on the version its response's status line names
	dir, ds := firefoxDownload(t, mozLogFixture(t, "firefox-h2-100KB"), Download{URL: mozLogURL, SizeDownload: 100000, SHA256: "ab"})
	TimesFromBrowserLogs(ds, dir)
	if err := Verify(ds[0], size100KB, Protocol{Name: "h3", HTTPVersion: "3"}, "ab"); err == nil || !strings.Contains(err.Error(), "spoke HTTP/2, want HTTP/3") {
		t.Errorf("h2 as h3: %v", err)
	}
}
