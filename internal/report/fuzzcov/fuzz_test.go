package fuzzcov

import (
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Fixtures: testdata/full holds copies of real campaigns (make fuzz, 20-60 s each) and a real
// `make coverage` summary with its reports truncated; the others are trimmed or broken copies.

const plantedRun = "fuzz/planted-oob/libfuzzer/20261123T034316Z-60a3"

// balanced checks that the fragment is well-formed (every element closed in order; <br> is
// the only void element the templates use), so an embedded section cannot break the page.
func balanced(t *testing.T, html string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader("<root>" + strings.ReplaceAll(html, "<br>", "<br/>") + "</root>"))
	d.Entity = xml.HTMLEntity
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("fragment is not well-formed: %v", err)
		}
	}
}

func mustContain(t *testing.T, body string, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if !strings.Contains(body, s) {
			t.Errorf("missing %q", s)
		}
	}
}

func TestFuzzFull(t *testing.T) {
	sec, err := Fuzz("testdata/full", "../")
	if err != nil {
		t.Fatal(err)
	}
	if sec.Title != "Fuzzing" || len(sec.Warnings) != 0 {
		t.Errorf("title %q, warnings %q", sec.Title, sec.Warnings)
	}
	body := string(sec.Body)
	balanced(t, body)
	mustContain(t, body,
		// the latest run per target+engine, with totals and a chart each
		`<a href="#fuzz-nghttp3-qpack-decoder-libfuzzer">`, `<a href="#fuzz-planted-oob-libfuzzer">`,
		`<a href="../fuzz/nghttp3-qpack-decoder/libfuzzer/20261123T034710Z-7aaa/stats.json">20261123T034710Z-7aaa</a>`,
		`<a href="../fuzz/nghttp3-qpack-decoder/libfuzzer/20261123T034710Z-7aaa/log">log</a>`,
		`<td class="num">58,776</td>`, `<td class="num">1,977</td>`, `cov 23, ft 71`, `543 edges`,
		`features over time`, `edges over time`,
		// the crash: signature, count, stack top, reproduce command, files
		`heap-buffer-overflow READ | parse_section</span> &times;236, 94 bytes minimized to 19.`,
		`#0 0x55b6eab889ee in parse_section /work/fuzz/planted-oob/harness.c:22:46`,
		`<pre class="repro"><code>make fuzz-repro CRASH=out/`+plantedRun+`/crashes/d8823adf5d73/minimized</code></pre>`,
		`<a href="../`+plantedRun+`/crashes/d8823adf5d73/minimized">minimized</a>`,
		`<a href="../`+plantedRun+`/crashes/d8823adf5d73/stack.txt">stack.txt</a>`,
		`<td class="num fail">1</td>`, `<p class="pass">No crashes.</p>`,
		// all runs, the latest marked
		`All runs (5)`, `<tr class="latest"><td>planted-oob</td>`,
	)
	if n := strings.Count(body, `<svg xmlns="http://www.w3.org/2000/svg"`); n != 3 {
		t.Errorf("%d charts, want one per target+engine (3)", n)
	}
	// The older libFuzzer run is listed once (all runs), not detailed; no log link where there is no log.
	if n := strings.Count(body, "20261123T034103Z-6c40</a>"); n != 1 {
		t.Errorf("older run shown %d times, want 1", n)
	}
	if strings.Contains(body, "6c40/log") || strings.Contains(body, "fuzz-build") {
		t.Error("link to a missing log, or the build cache taken for a target")
	}
	// The stack stops at the harness: driver frames and the allocation stack are noise.
	for _, noise := range []string{"fuzzer::Fuzzer", "allocated by thread", "BuildId", "INFO: Seed"} {
		if strings.Contains(body, noise) {
			t.Errorf("stack top contains %q", noise)
		}
	}
	again, _ := Fuzz("testdata/full", "../")
	if again.Body != sec.Body {
		t.Error("output differs between two calls")
	}
}

func TestFuzzRelOut(t *testing.T) {
	for relOut, want := range map[string]string{"": `href="fuzz/planted`, "../..": `href="../../fuzz/planted`, "x/": `href="x/fuzz/planted`} {
		sec, err := Fuzz("testdata/full", relOut)
		if err != nil || !strings.Contains(string(sec.Body), want) {
			t.Errorf("relOut %q: want %s (err %v)", relOut, want, err)
		}
	}
	// Path segments are escaped.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a b#c"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := newLinker(dir, "../").href("a b#c"); got != "../a%20b%23c" {
		t.Errorf("href = %q", got)
	}
	if got := newLinker(dir, "../").href("missing"); got != "" {
		t.Errorf("missing file linked: %q", got)
	}
}

func TestFuzzNoCampaigns(t *testing.T) {
	dir := t.TempDir()
	// Only fuzz/build.sh's cache: still no campaign.
	if err := os.MkdirAll(filepath.Join(dir, "fuzz", "build", "libfuzzer", "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{dir, t.TempDir()} {
		sec, err := Fuzz(d, "../")
		if err != nil {
			t.Fatal(err)
		}
		mustContain(t, string(sec.Body), "No fuzz campaigns", "<code>make fuzz</code>", "make fuzz TARGET=")
		balanced(t, string(sec.Body))
	}
}

func TestFuzzPartial(t *testing.T) {
	sec, err := Fuzz("testdata/partial", "../")
	if err != nil {
		t.Fatal(err)
	}
	body := string(sec.Body)
	balanced(t, body)
	mustContain(t, body,
		`<td class="warn">interrupted</td>`, `<td class="warn">running</td>`, `<td class="warn">no stats</td>`,
		`1 so far`, `heap-buffer-overflow READ | parse_section`, `#0 0x55b6eab889ee in parse_section`)
	w := strings.Join(sec.Warnings, "\n")
	mustContain(t, w, "nghttp3-qpack-decoder/libfuzzer/20261123T034710Z-7aaa: no crash triage",
		"nghttp3-qpack-decoder/afl/20261123T034750Z-5613: no stats.json",
		plantedRun+"/crashes/d8823adf5d73: no meta.json")
}

func TestFuzzCorrupt(t *testing.T) {
	for dir, want := range map[string][]string{
		"corrupt-type":   {"corrupt-type/" + plantedRun + "/stats.json", "field total_execs", "want an integer"},
		"corrupt-syntax": {"corrupt-syntax/" + plantedRun + "/stats.json", "invalid JSON at byte"},
		"missing-target": {"missing-target/" + plantedRun + "/stats.json", "field target: missing"},
		"corrupt-meta":   {"corrupt-meta/" + plantedRun + "/crashes/d8823adf5d73/meta.json", "field count"},
	} {
		_, err := Fuzz(filepath.Join("testdata", dir), "../")
		if err == nil {
			t.Errorf("%s: no error", dir)
			continue
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", dir, err, w)
			}
		}
	}
}

func TestStackTop(t *testing.T) {
	ubsan := "INFO: Seed: 1\n/src/nghttp3/lib/x.c:10:5: runtime error: signed integer overflow\n" +
		"    #0 0x1 in f /src/x.c:10:5\n    #1 0x2 in g /src/x.c:20:1\n    #2 0x3 in LLVMFuzzerTestOneInput /work/h.c:3\n    #3 0x4 in fuzzer::Fuzzer::ExecuteCallback\n"
	want := "/src/nghttp3/lib/x.c:10:5: runtime error: signed integer overflow\n    #0 0x1 in f /src/x.c:10:5\n" +
		"    #1 0x2 in g /src/x.c:20:1\n    #2 0x3 in LLVMFuzzerTestOneInput /work/h.c:3"
	if got := stackTop(ubsan, 12); got != want {
		t.Errorf("ubsan:\n%s\nwant\n%s", got, want)
	}
	deep := "==1==ERROR: AddressSanitizer: stack-overflow\n"
	for i := 0; i < 30; i++ {
		deep += "    #" + string(rune('0'+i%10)) + "1 0xab in rec /x.c:1\n"
	}
	if got := stackTop(deep, 5); strings.Count(got, "\n") != 6 || !strings.HasSuffix(got, "...") {
		t.Errorf("deep stack not cut at 5 frames:\n%s", got)
	}
	if got := stackTop("a\nb\nno report here", 2); got != "b\nno report here" {
		t.Errorf("fallback = %q", got)
	}
}

func TestReadPlotData(t *testing.T) {
	pts, err := readPlotData("testdata/full/fuzz/nghttp3-qpack-decoder/afl/20261123T034750Z-5613/afl/main/plot_data")
	if err != nil || len(pts) != 1 || pts[0].X != 60 || pts[0].Y != 543 {
		t.Fatalf("real plot_data: %v %v", pts, err)
	}
	dir := t.TempDir()
	old := "# unix_time, cycles_done, cur_path, paths_total, pending_total, pending_favs, map_size, unique_crashes, unique_hangs, max_depth, execs_per_sec, edges_found\n" +
		"1700000000, 0, 0, 10, 10, 1, 1.00%, 0, 0, 1, 100.0, 50\n1700000030, 0, 3, 12, 9, 1, 1.20%, 0, 0, 2, 110.0, 61\n"
	p := filepath.Join(dir, "plot_data")
	os.WriteFile(p, []byte(old), 0o644)
	pts, err = readPlotData(p)
	if err != nil || len(pts) != 2 || pts[1].X != 30 || pts[1].Y != 61 {
		t.Errorf("unix_time plot_data: %v %v", pts, err)
	}
	os.WriteFile(p, []byte("1, 2, 3\n"), 0o644)
	if _, err := readPlotData(p); err == nil || !strings.Contains(err.Error(), "no relative_time/edges_found") {
		t.Errorf("headerless plot_data: %v", err)
	}
	if pts, err := readPlotData(filepath.Join(dir, "none")); pts != nil || err != nil {
		t.Errorf("missing plot_data: %v %v", pts, err)
	}
}

func TestFormat(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{fmtInt(0), "0"}, {fmtInt(999), "999"}, {fmtInt(1000), "1,000"}, {fmtInt(-1234567), "-1,234,567"},
		{fmtRate(11765.1), "11,765"}, {fmtRate(3.46), "3.5"}, {fmtDuration(31.6), "32 s"},
		{fmtDuration(303), "5 min 3 s"}, {fmtDuration(3725), "1 h 2 min"}, {fmtPct(96.65), "96.7%"},
		{fmtUnix(1795405277.09), "2026-11-23 03:41Z"}, {fmtUnix(0), ""},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestCoverageSeries(t *testing.T) {
	runs, err := findRuns("testdata/full")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range latest(runs) {
		series, ylabel, warns := coverageSeries("testdata/full", r)
		if len(series) != 1 || len(series[0].Points) < 4 || len(warns) != 0 {
			t.Errorf("%s/%s: %d series, warnings %q", r.Target, r.Engine, len(series), warns)
			continue
		}
		// The t=0.1 sample before the engine's first status is left out.
		if p := series[0].Points[0]; p.X < 1 || p.Y == 0 {
			t.Errorf("%s/%s: first point %v", r.Target, r.Engine, p)
		}
		if want := map[string]string{"afl": "edges", "libfuzzer": "features"}[r.Engine]; ylabel != want {
			t.Errorf("%s: y label %q", r.Engine, ylabel)
		}
		// Without stats.json samples an AFL++ run falls back to its instances' plot_data.
		if r.Engine == "afl" {
			r.Stats.Timeseries = nil
			series, _, _ = coverageSeries("testdata/full", r)
			if len(series) != 1 || series[0].Name != "main" || len(series[0].Points) != 1 || series[0].Points[0].Y != 543 {
				t.Errorf("plot_data fallback: %+v", series)
			}
		}
	}
}
