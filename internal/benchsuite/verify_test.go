package benchsuite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var (
	h2    = Protocol{Name: "h2", ALPN: "h2", Curl: "--http2", HTTPVersion: "2", Transport: "tcp"}
	oneMB = Size{Name: "1MB", Bytes: 1_000_000}
	oneKB = Size{Name: "1KB", Bytes: 1000}
)

func good(size Size) Download {
	return Download{URL: "https://server4:443/" + size.File(), HTTPVersion: "2", ResponseCode: 200, SizeDownload: size.Bytes,
		TimeStartTransfer: 0.1, TimeTotal: 0.5}
}

// The verifier must fail a download that is not what was asked for: each fault is one line
// naming the size, the protocol and what was wrong.
func TestVerifyFailsBadDownloads(t *testing.T) {
	if err := Verify(good(oneMB), oneMB, h2, ""); err != nil {
		t.Fatalf("a good download failed: %v", err)
	}
	for want, d := range map[string]Download{
		"999999 bytes arrived, want 1000000":     func() Download { d := good(oneMB); d.SizeDownload--; return d }(),
		"1000001 bytes arrived":                  func() Download { d := good(oneMB); d.SizeDownload++; return d }(),
		"the client spoke HTTP/1.1, want HTTP/2": func() Download { d := good(oneMB); d.HTTPVersion = "1.1"; return d }(),
		"HTTP status 404":                        func() Download { d := good(oneMB); d.ResponseCode = 404; return d }(),
		"client exit 28: Operation timed out":    func() Download { d := good(oneMB); d.ExitCode, d.ErrorMsg = 28, "Operation timed out"; return d }(),
		"want 0 < ttfb <= total":                 func() Download { d := good(oneMB); d.TimeStartTransfer = 0.9; return d }(),
	} {
		err := Verify(d, oneMB, h2, "")
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "1MB over h2: ") {
			t.Errorf("want %q, got %v", want, err)
		}
	}
}

// A QUIC stack's client reports no status: the body it saved must be the object (its SHA-256),
// and its times must have come from its qlog.
func TestVerifyQUICClientDownloads(t *testing.T) {
	h3 := Protocol{Name: "h3", ALPN: "h3", HTTPVersion: "3", Transport: "udp"}
	const object = "6a1f0c"
	quic := func() Download {
		return Download{URL: "https://server4:443/1MB.bin", HTTPVersion: "3", SizeDownload: oneMB.Bytes, SHA256: object,
			Qlog: "qlog/bench-1", TimeStartTransfer: 0.1, TimeTotal: 0.5}
	}
	if err := Verify(quic(), oneMB, h3, object); err != nil {
		t.Fatalf("a good download failed: %v", err)
	}
	for want, d := range map[string]Download{
		"the body saved is not the object (SHA-256 0000":       func() Download { d := quic(); d.SHA256 = "0000"; return d }(),
		"no times from the client's log: stream 0 never ended": func() Download { d := quic(); d.TimesError = "stream 0 never ended"; return d }(),
		"HTTP status 0, want 200":                              func() Download { d := quic(); d.SHA256 = ""; return d }(),
		"client exit 1: ngtcp2 client exit 0 but saved no": func() Download {
			d := quic()
			d.ExitCode, d.ErrorMsg = 1, "ngtcp2 client exit 0 but saved no /downloads/1MB.bin"
			return d
		}(),
	} {
		if err := Verify(d, oneMB, h3, object); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("want %q, got %v", want, err)
		}
	}
}

func TestVerifyAllPairsInOrder(t *testing.T) {
	sizes := []Size{oneKB, oneMB}
	if err := VerifyAll([]Download{good(oneKB), good(oneMB)}, sizes, h2, nil); err != nil {
		t.Fatal(err)
	}
	if err := VerifyAll([]Download{good(oneKB)}, sizes, h2, nil); err == nil || !strings.Contains(err.Error(), "no download recorded") {
		t.Errorf("missing download: %v", err)
	}
	if err := VerifyAll([]Download{good(oneMB), good(oneKB)}, sizes, h2, nil); err == nil || !strings.Contains(err.Error(), "want .../1KB.bin") {
		t.Errorf("swapped downloads: %v", err)
	}
}

// curl's -w '%{json}' line, as curl 8.14 writes it (abridged to the fields read and a few more).
func TestReadDownloads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bench.jsonl")
	line := `{"certs":"","content_type":"application/octet-stream","errormsg":null,"exitcode":0,"http_code":200,"http_version":"3",` +
		`"response_code":200,"size_download":1000,"time_starttransfer":0.118756,"time_total":0.118855,"url_effective":"https://server4:443/1KB.bin"}`
	must(t, os.WriteFile(path, []byte(line+"\n\n"), 0o644))
	ds, err := ReadDownloads(path)
	if err != nil || len(ds) != 1 || ds[0].HTTPVersion != "3" || ds[0].SizeDownload != 1000 || ds[0].TimeTotal != 0.118855 {
		t.Fatalf("%+v %v", ds, err)
	}
	must(t, os.WriteFile(path, []byte(line+"\nnot json\n"), 0o644))
	if _, err := ReadDownloads(path); err == nil || !strings.Contains(err.Error(), "bench.jsonl:2:") {
		t.Errorf("bad line: %v", err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
