package fuzzcov

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestCoverageFull(t *testing.T) {
	sec, err := Coverage("testdata/full", "../")
	if err != nil {
		t.Fatal(err)
	}
	if sec.Title != "Coverage gates" || len(sec.Warnings) != 0 {
		t.Errorf("title %q, warnings %q", sec.Title, sec.Warnings)
	}
	body := string(sec.Body)
	balanced(t, body)
	mustContain(t, body,
		`<span class="pass">Every gate holds.</span>`,
		`<a href="../coverage/summary.json">20261123-034455-0baf</a>`,
		// the decoder's gate (its functions of two files) and the whole library
		`gated set (2 files), only_functions`,
		`<td class="num pass">96.7%<br><small>1,020 / 1,055, gate &ge; 96.5%</small></td>`,
		`<td class="num ">18.7%<br><small>1,306 / 7,002</small></td>`,
		// Go: no branches, "all Go code" as the whole scope
		`<td class="num na">—</td>`, `all Go code`,
		`<a href="../coverage/nghttp3-qpack-decoder/index.html">details</a> · <a href="../coverage/nghttp3-qpack-decoder/gate/index.html">gate details</a>`,
		`<a href="../coverage/wirelab-go/go.cover">go.cover</a>`,
	)
	if n := strings.Count(body, `<td rowspan="2" class="pass">pass</td>`); n != 3 {
		t.Errorf("%d passing targets, want 3", n)
	}
	again, _ := Coverage("testdata/full", "../")
	if again.Body != sec.Body {
		t.Error("output differs between two calls")
	}
}

func TestCoverageGateFails(t *testing.T) {
	sec, err := Coverage("testdata/gatefail", "../")
	if err != nil {
		t.Fatal(err)
	}
	body := string(sec.Body)
	balanced(t, body)
	mustContain(t, body,
		`<span class="fail">A gate failed.</span>`,
		`<td class="num fail">52.6%<br><small>1,180 / 2,243, gate &ge; 100.0%</small></td>`,
		// Go: lines below its 99% gate, functions above 50%
		`<td class="num fail">65.5%`, `<td class="num pass">77.8%`,
		`<td rowspan="2" class="fail">failed</td>`,
		`<p class="fail">coverage gate FAILED: nghttp3-qpack-decoder lines measured 52.6% &lt; threshold 100.0%</p>`,
		`<p class="fail">coverage gate FAILED: wirelab-go lines measured 65.5% &lt; threshold 99.0%</p>`,
		// a target that could not be measured
		`<td colspan="4" class="fail">coverage/measure.sh failed (exit 1)`, `<td class="fail">error</td>`,
	)
	if strings.Contains(body, "href=") && strings.Contains(body, "coverage/nghttp3-qpack-decoder/index.html") {
		t.Error("linked a report that is not there")
	}
	w := strings.Join(sec.Warnings, "\n")
	mustContain(t, w, "coverage/nghttp3-qpack-decoder/index.html: listed in coverage/summary.json but missing")
	if strings.Contains(w, "nghttp3-h3-conn") {
		t.Error("a target that could not be measured has no reports to miss")
	}
}

func TestCoverageMissing(t *testing.T) {
	sec, err := Coverage(t.TempDir(), "../")
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, string(sec.Body), "No coverage measured yet", "<code>make coverage</code>", "coverage/gates.yml")
	balanced(t, string(sec.Body))
}

func TestCoverageCorrupt(t *testing.T) {
	_, err := Coverage("testdata/corrupt-summary", "../")
	want := filepath.Join("testdata", "corrupt-summary", "coverage", "summary.json")
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "field targets.wirelab-go.gate.lines.percent") {
		t.Errorf("error %v, want the file and the field", err)
	}
}
