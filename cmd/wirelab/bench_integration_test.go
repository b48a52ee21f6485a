package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/benchsuite"
	"github.com/wirelab/wirelab/internal/manifest"
	"github.com/wirelab/wirelab/internal/matrix"
)

// make bench QUICK=1, the short set of conformance/bench/bench.yml (nginx; curl and ngtcp2's
// client; lte and simple-p2p; 1 KB and 1 MB; 2 repetitions): every server x client x protocol it
// speaks x profile x size has its bench.csv row with both repetitions verified and positive
// times (ngtcp2's from its qlog), every chart exists and is XML, and the report shows the Bench
// section. Shape and completeness only: timings are the machine's.
func TestIntegrationBenchQuick(t *testing.T) {
	bin := integration(t)
	id, out := runID(t, "it-bench"), t.TempDir()
	code, log := wirelab(t, bin, "bench", "--quick", "--run-id", id, "--out", out, "--seed", "7")
	t.Log(log)
	assertNothingLeft(t, id)
	if code != 0 {
		t.Fatalf("bench --quick exit %d", code)
	}
	cfg, err := benchsuite.Load("../../conformance/bench/bench.yml")
	if err != nil {
		t.Fatal(err)
	}
	q := cfg.Quick
	dir := filepath.Join(out, "bench", id)
	rows, err := benchsuite.ReadCSV(filepath.Join(dir, "bench.csv"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]benchsuite.Row{}
	for _, r := range rows {
		got[r.Server+"|"+r.Client+"|"+r.Protocol+"|"+r.Profile+"|"+r.Size] = r
	}
	ms, err := manifest.LoadDir("../../images")
	if err != nil {
		t.Fatal(err)
	}
	var cells []string // client|protocol
	for _, c := range benchsuite.ClientsFromManifests(ms) {
		for _, p := range cfg.Protocols {
			if slices.Contains(q.Clients, c.Name) && c.Speaks(p) {
				cells = append(cells, c.Name+"|"+p.Name)
			}
		}
	}
	if !slices.Contains(cells, "ngtcp2|h3") || !slices.Contains(cells, "curl|h1") {
		t.Fatalf("quick clients %v: want curl and ngtcp2's", cells)
	}
	want := 0
	for _, s := range q.Servers {
		for _, cp := range cells {
			for _, prof := range q.Profiles {
				for _, size := range q.Sizes {
					want++
					k := s + "|" + cp + "|" + prof + "|" + size
					r, ok := got[k]
					switch {
					case !ok:
						t.Errorf("bench.csv has no row %s", k)
					case r.Reps != q.Repetitions || len(r.Seeds) != q.Repetitions:
						t.Errorf("%s: %d repetitions, %d seeds, want %d: %s", k, r.Reps, len(r.Seeds), q.Repetitions, r.Note)
					case !(r.Time.Median > 0 && r.TTFBMedian > 0 && r.Time.Min > 0 && r.TTFBMedian <= r.Time.Max):
						t.Errorf("%s: times %+v, ttfb %v", k, r.Time, r.TTFBMedian)
					}
				}
			}
		}
	}
	if len(rows) != want {
		t.Errorf("bench.csv has %d rows, want %d", len(rows), want)
	}
	for _, c := range benchsuite.ChartSet(rows, nil) {
		data, err := os.ReadFile(filepath.Join(dir, c.File))
		if err != nil {
			t.Errorf("chart %s: %v", c.File, err)
			continue
		}
		if err := wellFormed(data); err != nil || !bytes.HasPrefix(data, []byte("<svg")) {
			t.Errorf("chart %s is not SVG: %v", c.File, err)
		}
	}
	for _, f := range []string{"results.jsonl", "junit.xml", "result.json", "nginx@h3_curl/lte/bench.json", "nginx@h2_curl/lte/r2/rerun.sh",
		"nginx@h1_curl/simple-p2p/r1/client/bench.jsonl", "nginx@h3_curl/simple-p2p/r2/sim/trace_node_right.pcap",
		"nginx@h3_ngtcp2/lte/r1/client/bench.jsonl", "nginx@h3_ngtcp2/lte/r2/client/qlog/bench-2"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s missing or empty", f)
		}
	}
	if code, rlog := wirelab(t, bin, "report", "--out", out, "--traces", "none"); code != 0 {
		t.Fatalf("report exit %d:\n%s", code, rlog)
	}
	index, _ := os.ReadFile(filepath.Join(out, "report", "index.html"))
	if !strings.Contains(string(index), `<section id="bench">`) || !strings.Contains(string(index), "median download time vs object size on lte") {
		t.Error("the report has no Bench section with the run's charts")
	}
}

func wellFormed(data []byte) error {
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		if _, err := d.Token(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// make bench CONGESTION=bbr on the smallest sweep: the servers run as <server>@bbr, the server's
// TCP namespace really sends with bbr (read back from it, in bench.json), ngtcp2's QUIC takes
// --cc=bbr, and nginx, whose QUIC has no switch (its manifest declares none), is unsupported in
// the plan, its manifest's field the reason.
// Every repetition that ran has the server's CPU time from its cgroup.
func TestIntegrationBenchCongestion(t *testing.T) {
	dir := benchSweep(t, "it-bench-cc", "--servers", "nginx,ngtcp2", "--protocols", "h2,h3", "--congestion", "bbr")
	for _, cell := range []string{"nginx@h2+bbr_curl", "ngtcp2@h3+bbr_curl"} {
		rec, err := benchsuite.ReadRecord(filepath.Join(dir, cell, "simple-p2p", benchsuite.RecordFile))
		if err != nil {
			t.Fatal(err)
		}
		if len(rec.Reps) != 1 || rec.CC != "bbr" || rec.Reps[0].ServerTCPCC != "bbr" || len(rec.Reps[0].Samples) != 1 || rec.Reps[0].ServerCPUms <= 0 {
			t.Errorf("%s: %+v", cell, rec)
		}
	}
	results, err := matrix.ReadResults(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var nginxH3 matrix.Result
	for _, r := range results {
		if r.Server == "nginx" && r.Get(benchsuite.AxisVariant) == "bbr" && r.Get(benchsuite.AxisProtocol) == "h3" {
			nginxH3 = r
		}
	}
	if nginxH3.Result != matrix.Unsupported || !strings.Contains(nginxH3.Reason, "images/nginx/manifest.yml: switches.quic_cc has no bbr") {
		t.Errorf("nginx@bbr h3: %s %q", nginxH3.Result, nginxH3.Reason)
	}
	rows, err := benchsuite.ReadCSV(filepath.Join(dir, "bench.csv"))
	if err != nil || len(rows) != 2 || rows[0].CC != "bbr" {
		t.Errorf("bench.csv: %v %+v", err, rows)
	}
}

// make bench HYSTART=off: the switch reaches the stacks that have one and no other. ngtcp2 runs
// gtlsserver on the libngtcp2 built without HyStart++ (its log names the library it loaded),
// haproxy sets tune.quic.cc-hystart off, nginx has no switch: unsupported in the plan, its
// manifest's field the reason.
func TestIntegrationBenchHyStart(t *testing.T) {
	dir := benchSweep(t, "it-bench-hystart", "--servers", "ngtcp2,haproxy,nginx", "--protocols", "h3", "--hystart", "off")
	for _, cell := range []string{"ngtcp2@h3+hystart-off_curl", "haproxy@h3+hystart-off_curl"} {
		rec, err := benchsuite.ReadRecord(filepath.Join(dir, cell, "simple-p2p", benchsuite.RecordFile))
		if err != nil || rec.HyStart != "off" || len(rec.Reps) != 1 || len(rec.Reps[0].Samples) != 1 {
			t.Errorf("%s: %v %+v", cell, err, rec)
		}
	}
	lib, _ := os.ReadFile(filepath.Join(dir, "ngtcp2@h3+hystart-off_curl", "simple-p2p", "r1", "server", "ngtcp2.log"))
	if !strings.Contains(string(lib), "libngtcp2.so.16 => /usr/local/lib/ngtcp2-no-hystart/libngtcp2.so.16") {
		t.Errorf("ngtcp2 did not load the library without HyStart++: %s", lib)
	}
	results, err := matrix.ReadResults(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if r.Server == "nginx" && r.Get(benchsuite.AxisVariant) == "hystart-off" && (r.Result != matrix.Unsupported || !strings.Contains(r.Reason, "images/nginx/manifest.yml: switches.quic_hystart.default has no off")) {
			t.Errorf("nginx@hystart-off: %s %q", r.Result, r.Reason)
		}
	}
}

// benchSweep runs the smallest bench (curl, simple-p2p, 100 KB, one repetition) with the sweep's
// flags, checks it passed and left nothing running, and returns the run's folder.
func benchSweep(t *testing.T, name string, flags ...string) string {
	t.Helper()
	bin := integration(t)
	id, out := runID(t, name), t.TempDir()
	args := append([]string{"bench", "--clients", "curl", "--profiles", "simple-p2p", "--sizes", "100KB", "--reps", "1",
		"--run-id", id, "--out", out, "--seed", "7"}, flags...)
	code, log := wirelab(t, bin, args...)
	t.Log(log)
	assertNothingLeft(t, id)
	if code != 0 {
		t.Fatalf("bench %v exit %d", flags, code)
	}
	return filepath.Join(out, "bench", id)
}

// make bench CLIENTS=chromium,firefox: each browser downloads over h2 and h3, each size by a
// browser of its own, timed from its own log (Chromium's NetLog, Firefox's HTTP log), which
// also says the HTTP version the protocol wants; the browser's CPU over each download is in
// bench.csv; Firefox sent no request to a host outside the lab.
func TestIntegrationBenchBrowser(t *testing.T) {
	dir := benchSweep(t, "it-bench-browser", "--servers", "nginx", "--protocols", "h2,h3", "--clients", "chromium,firefox") // the last --clients wins
	rows, err := benchsuite.ReadCSV(filepath.Join(dir, "bench.csv"))
	if err != nil || len(rows) != 4 {
		t.Fatalf("bench.csv: %v %+v", err, rows)
	}
	for _, r := range rows {
		if r.Reps != 1 || !(r.Time.Median > 0 && r.TTFBMedian > 0 && r.ClientCPUmsPerMB > 0) {
			t.Errorf("%s %s: %+v", r.Client, r.Protocol, r)
		}
	}
	for cell, log := range map[string]string{
		"nginx@h2_chromium": "netlog-bench-1.json", "nginx@h3_chromium": "netlog-bench-1.json",
		"nginx@h2_firefox": "firefox-bench-1.log.moz_log", "nginx@h3_firefox": "firefox-bench-1.log.moz_log",
	} {
		client := filepath.Join(dir, cell, "simple-p2p", "r1", "client")
		if st, err := os.Stat(filepath.Join(client, log)); err != nil || st.Size() == 0 {
			t.Errorf("%s: no log of the download of its own: %v", cell, err)
		}
		if strings.HasSuffix(cell, "firefox") {
			assertFirefoxStaysInLab(t, client)
		}
	}
}
