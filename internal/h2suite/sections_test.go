package h2suite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestShippedMatrixLoads(t *testing.T) {
	sections, err := LoadSections("../../conformance/h2/matrix.yml")
	if err != nil {
		t.Fatal(err)
	}
	if sections[0].Name != "h2spec" || sections[0].Client != ClientH2spec || sections[0].Limit <= 0 {
		t.Fatalf("%+v", sections[0])
	}
	own := sections[1] // include: own-cases expands in place, in cases.yml order
	if own.Abbr != "F1" || own.Client != ClientH2check || own.Params != "-cases "+own.Name || own.Limit < ownCasesMargin {
		t.Fatalf("own case: %+v", own)
	}
	for _, s := range sections {
		if s.TypicalSeconds <= 0 {
			t.Errorf("%s: no typical seconds", s.Name)
		}
	}
}

func TestIncludeCarriesTypical(t *testing.T) {
	p := filepath.Join(t.TempDir(), "matrix.yml")
	os.WriteFile(p, []byte("sections: [{include: probes, typical: 25s}, {include: own-cases}]"), 0o644)
	sections, err := LoadSections(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sections {
		want := defaultTypical.Seconds()
		if s.Client == ClientH2probe {
			want = 25
		}
		if s.TypicalSeconds != want {
			t.Errorf("%s (%s): typical %v, want %v", s.Name, s.Client, s.TypicalSeconds, want)
		}
	}
}

func TestBadMatrixNamesFileEntryAndField(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "matrix.yml")
	ok := "{name: a, abbr: A, requirement: RFC 9113 §6.9, client: h2check, testcase: h2, timeout: 10s}"
	for body, want := range map[string]string{
		"sections: [" + strings.Replace(ok, "client: h2check", "client: curl", 1) + "]":            "sections[0] (a): client:",
		"sections: [" + strings.Replace(ok, "timeout: 10s", "timeout: soon", 1) + "]":              "sections[0] (a): timeout:",
		"sections: [" + strings.Replace(ok, "timeout: 10s", "timeout: 10s, typical: -3s", 1) + "]": "sections[0] (a): typical:",
		"sections: [" + strings.Replace(ok, "requirement: RFC 9113 §6.9, ", "", 1) + "]":           "sections[0] (a): requirement:",
		"sections: [" + ok + ", " + ok + "]":                                                       "sections[1] (a): name: duplicate",
		"sections: [{name: a, bogus: 1}]":                                                          "field bogus not found",
		"sections: []":                                                                             "sections: none",
		"sections: [{include: everything}]":                                                        "sections[0]: include:",
	} {
		os.WriteFile(p, []byte(body), 0o644)
		if _, err := LoadSections(p); err == nil || !strings.Contains(err.Error(), "matrix.yml") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", body, err, want)
		}
	}
}

func TestNarrowH2spec(t *testing.T) {
	secs := []*Section{{Name: "h2spec", Client: ClientH2spec}, {Name: "x", Client: ClientH2check, Params: "x"}}
	if err := NarrowH2spec(secs, "http2/6.9,hpack/2.3.3/1"); err != nil || secs[0].Params != "http2/6.9 hpack/2.3.3/1" || secs[1].Params != "x" {
		t.Fatalf("%v %+v %+v", err, secs[0], secs[1])
	}
	for _, bad := range []string{"6.9", "http2/6.9;rm", "http3/1"} {
		if err := NarrowH2spec(secs, bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestResizeUploads(t *testing.T) {
	secs := []*Section{{Client: ClientH2upload, Params: "-proto h2 -size 10000000 -reps 5"}, {Client: ClientH2spec, Params: "-size 1"}}
	if err := ResizeUploads(secs, 1000000, 2); err != nil || secs[0].Params != "-proto h2 -size 1000000 -reps 2" || secs[1].Params != "-size 1" {
		t.Fatalf("%v %+v", err, secs)
	}
	if err := ResizeUploads(secs, -1, 0); err == nil {
		t.Fatal("a negative size accepted")
	}
}

// A server that speaks no HTTP/1.1 (nghttpd) skips the HTTP/1.1 uploads, in the plan and the run.
func TestH1UploadNeedsHTTP11(t *testing.T) {
	h1 := &Section{Name: "u1", Client: ClientH2upload, Params: "-proto h1"}
	h2 := &Section{Name: "u2", Client: ClientH2upload, Params: "-proto h2"}
	only := Server{Name: "nghttpd", ALPN: []string{"h2"}}
	if ok, why := only.supports(h1); ok || !strings.Contains(why, "no HTTP/1.1") {
		t.Fatalf("%v %q", ok, why)
	}
	if ok, _ := only.supports(h2); !ok {
		t.Fatal("h2 upload on an h2 server")
	}
	if ok, _ := (Server{Name: "nginx"}).supports(h1); !ok {
		t.Fatal("a server without alpn.h2 speaks both")
	}
	cells := (&Matrix{servers: []Server{only}, sections: []*Section{h1, h2}}).Cells()
	if !cells[0].Skip || cells[1].Skip {
		t.Fatalf("%+v", cells)
	}
}
