package h2suite

import (
	"os"
	"strings"
	"testing"
)

// Go's net/http server (a real trace, two upload connections): 1 MiB windows credited in 8 KiB steps.
func TestServerWindowsFromGoTrace(t *testing.T) {
	data, err := os.ReadFile("testdata/go-h2-upload-windows.tsv")
	if err != nil {
		t.Fatal(err)
	}
	w, err := ParseServerWindows(string(data))
	if err != nil {
		t.Fatal(err)
	}
	if w.Connections != 2 || w.InitialWindow != 1048576 || w.ConnWindow != 1048576 || w.MedianStreamIncr != 8192 || w.StreamUpdates < 100 {
		t.Fatalf("%+v", w)
	}
}

// nginx's shape (lines from a real trace): 64 KiB announced, the connection opened to 2^31-1,
// then one stream WINDOW_UPDATE opening the stream fully.
func TestServerWindowsNginxShape(t *testing.T) {
	lines := "2.924494130\t0\t443\t4|8|4|6\t0|0|0|0\t2147418112\t65536\n2.966220486\t0\t443\t8\t1\t2147418111\t\n"
	w, err := ParseServerWindows(lines)
	if err != nil || w.InitialWindow != 65536 || w.ConnWindow != 2147483647 || w.StreamUpdates != 1 || w.ConnUpdates != 0 {
		t.Fatalf("%v %+v", err, w)
	}
	// A server that announces nothing: the RFC defaults.
	if w, err := ParseServerWindows("1.0\t0\t443\t4\t0\t\t\n"); err != nil || w.InitialWindow != 65535 || w.ConnWindow != 65535 {
		t.Fatalf("%v %+v", err, w)
	}
	// nodejs-h2's and nghttpd's shape: no opening grant; the first stream-0 WINDOW_UPDATE comes
	// after the client's DATA and is credit, not a larger window.
	credit := "1.0\t0\t443\t4\t0\t\t\n1.1\t0\t50000\t0\t1\t\t\n1.2\t0\t443\t8|8\t0|1\t32768|32768\t\n"
	if w, err := ParseServerWindows(credit); err != nil || w.ConnWindow != 65535 || w.ConnUpdates != 1 || w.StreamUpdates != 1 {
		t.Fatalf("%v %+v", err, w)
	}
}

func TestServerWindowsBadInput(t *testing.T) {
	for in, want := range map[string]string{
		"":                             "no SETTINGS or WINDOW_UPDATE",
		"x\t0\t443\t8\t0\t1\t\n":       "time",
		"1.0\t0\t443\t8|8\t0\t1|1\t\n": "2 frame types for 1 stream ids",
		"1.0\t0\t443\t8\t0\t\t\n":      "without its increment",
		"1.0\t0\t443\t4\t0\t\tmany\n":  "initial window",
		"1.0\t0\t443\t8\n":             "4 fields",
	} {
		if _, err := ParseServerWindows(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}
