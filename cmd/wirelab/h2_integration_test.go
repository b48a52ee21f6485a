package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The h2 smoke CI runs: on Go's net/http server, h2spec's flow-control section (6.9), every
// one of wirelab's own cases, and a short upload over HTTP/1.1 and h2 through the fast-upload
// profile. Go's server is known to answer "te: gzip" with a 400 and no RST_STREAM (golang/go#26321):
// that case must fail, the other own cases pass; conformance/h2/expected.yml (the default
// baseline) expects it, so the run exits 0.
func TestIntegrationH2Smoke(t *testing.T) {
	bin := integration(t)
	id, out := runID(t, "it-h2"), t.TempDir()
	own := ownCases(t)
	code, log := wirelab(t, bin, "h2", "--run-id", id, "--out", out, "-j", "2", "--seed", "7", "--servers", "go-h2",
		"--h2spec", "http2/6.9", "--upload-size", "2000000", "--upload-reps", "2",
		"--cases", "h2spec,"+own+",upload-fast-h1,upload-fast-h2")
	t.Log(log)
	assertNothingLeft(t, id)
	dir := filepath.Join(out, "h2", id)
	rows := readJournal(t, filepath.Join(dir, "results.jsonl"))
	var cells, subs []cellLine
	for _, r := range rows {
		if r.Sub == "" {
			cells = append(cells, r)
		} else {
			subs = append(subs, r)
		}
	}
	if want := 3 + strings.Count(own, ",") + 1; len(cells) != want || code != 0 {
		t.Fatalf("%d cells, exit %d; want %d cells and exit 0 (the te case fails, as the baseline expects; so may go-h2's timing-dependent h2spec 6.9.1/3)", len(cells), code, want)
	}
	if !regexp.MustCompile(`conformance/h2/expected.yml: \d+ failed as expected, 0 regressions`).MatchString(log) {
		t.Error("the default baseline did not judge the run")
	}
	for _, c := range cells {
		switch {
		case c.Case == "8.2.2-te-not-trailers":
			if c.Result != "failed" || !strings.Contains(c.Reason, "400") {
				t.Errorf("te: gzip on Go's server: %s %q", c.Result, c.Reason)
			}
		case c.Case == "h2spec":
			if strings.Contains(c.Reason, "report") { // a verdict, not a missing report
				t.Errorf("h2spec: %s", c.Reason)
			}
		case c.Result != "succeeded":
			t.Errorf("%s: %s %q", c.Case, c.Result, c.Reason)
		}
	}
	// h2spec's cases are results of their own: each of section 6.9's, with the verdict go-h2 gives
	// it (6.9.1/3 depends on timing: h2spec's 2 s per case against a window update).
	wantSubs := map[string]bool{}
	for _, id := range []string{"http2/6.9/1", "http2/6.9/2", "http2/6.9/3", "http2/6.9.1/1", "http2/6.9.1/2", "http2/6.9.1/3",
		"http2/6.9.2/1", "http2/6.9.2/2", "http2/6.9.2/3"} {
		wantSubs[id] = true
	}
	for _, s := range subs {
		switch {
		case s.Case != "h2spec" || !wantSubs[s.Sub]:
			t.Errorf("sub-case %s/%s: not one of h2spec 6.9's", s.Case, s.Sub)
		case s.Result != "succeeded" && s.Sub != "http2/6.9.1/3":
			t.Errorf("h2spec %s on go-h2: %s %q", s.Sub, s.Result, s.Reason)
		}
		delete(wantSubs, s.Sub)
	}
	if len(wantSubs) > 0 {
		t.Errorf("h2spec sub-cases missing from results.jsonl: %v", wantSubs)
	}
	if junit, _ := os.ReadFile(filepath.Join(dir, "junit.xml")); !strings.Contains(string(junit), `name="h2spec/http2/6.9.2/3"`) {
		t.Errorf("junit.xml has no testcase per h2spec case:\n%s", junit)
	}
	for _, f := range []string{"result.json", "junit.xml", "upload.csv", "go-h2_h2spec/h2spec/client/junit.xml",
		"go-h2_h2upload/upload-fast-h2/sim/trace_node_right.pcapng", "go-h2_h2check/6.9-tiny-window-updates/rerun.sh"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s missing or empty", f)
		}
	}
	rerun, _ := os.ReadFile(filepath.Join(dir, "go-h2_h2spec", "h2spec", "rerun.sh"))
	if !strings.Contains(string(rerun), "--cases h2spec --seed 7 --profile ideal --h2spec http2/6.9 --upload-size 2000000 --upload-reps 2") {
		t.Errorf("rerun.sh does not run what the cell ran:\n%s", rerun)
	}
	csv, _ := os.ReadFile(filepath.Join(dir, "upload.csv"))
	if !strings.Contains(string(csv), "go-h2,fast-upload,high,") || !strings.Contains(string(csv), ",1048576,1048576,") {
		t.Errorf("upload.csv lacks go-h2's pair or its 1 MiB windows read from the trace:\n%s", csv)
	}
}

// ownCases lists conformance/h2/cases.yml's case names.
func ownCases(t *testing.T) string {
	data, err := os.ReadFile("../../conformance/h2/cases.yml")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range strings.Split(string(data), "\n") {
		if n, ok := strings.CutPrefix(l, "- name: "); ok {
			names = append(names, strings.TrimSpace(n))
		}
	}
	return strings.Join(names, ",")
}
