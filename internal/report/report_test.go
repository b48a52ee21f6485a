package report

import (
	"context"
	"encoding/binary"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/docker"
	"github.com/wirelab/wirelab/internal/suite"
	"github.com/wirelab/wirelab/internal/suites"
	"github.com/wirelab/wirelab/internal/tshark"
)

// The fixture: testdata/fixture-out holds a QUIC run and an older one (a cell changed verdict, a flaky
// repeated cell, a measurement, an unsupported cell that never ran), an h2 run with upload.csv
// and a gRPC-web run where the chain's verdicts differ from their own outcomes. The test copies
// it, gives the runs their order (results.jsonl times) and writes the sim's traces.
const (
	oldQuic = "20261120-090000-0001"
	newQuic = "20261121-090000-0002"
	h2Run   = "20261121-100000-0003"
	gwRun   = "20261121-110000-0004"
)

// The fixture's suites: the registry's (the report itself names none).
const (
	SuiteQUIC    = "quic"
	SuiteH2      = "h2"
	SuiteGrpcweb = "grpcweb"
)

// registry is the command line's registry.
var registry suite.Registry = suites.All

// fixtureBaselines are the baselines the tests judge the fixture's runs by (not the
// repository's, which follow the real implementations).
func fixtureBaselines(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, s := range []string{SuiteQUIC, SuiteH2, SuiteGrpcweb} {
		p, err := filepath.Abs(filepath.Join("testdata", "baselines", s+".yml"))
		if err != nil {
			t.Fatal(err)
		}
		out[s] = p
	}
	return out
}

type pkt struct {
	at               time.Duration
	proto            byte
	sport, dport     uint16
	payload          int
	fromClient, from bool
}

// writePcap writes a raw-IP classic pcap of IPv4 packets between the lab's client (.0.100) and
// server (.1.100).
func writePcap(t *testing.T, path string, pkts []pkt) {
	t.Helper()
	b := make([]byte, 24)
	binary.LittleEndian.PutUint32(b, 0xa1b2c3d4)
	binary.LittleEndian.PutUint16(b[4:], 2)
	binary.LittleEndian.PutUint16(b[6:], 4)
	binary.LittleEndian.PutUint32(b[16:], 65535)
	binary.LittleEndian.PutUint32(b[20:], 101)
	base := time.Unix(1763900000, 0)
	for _, p := range pkts {
		hl := 8
		if p.proto == 6 {
			hl = 20
		}
		ip := make([]byte, 20+hl+p.payload)
		ip[0], ip[9] = 0x45, p.proto
		binary.BigEndian.PutUint16(ip[2:], uint16(len(ip)))
		cl, sv := []byte{198, 18, 0, 100}, []byte{198, 18, 1, 100}
		src, dst := cl, sv
		if !p.fromClient {
			src, dst = sv, cl
		}
		copy(ip[12:], src)
		copy(ip[16:], dst)
		binary.BigEndian.PutUint16(ip[20:], p.sport)
		binary.BigEndian.PutUint16(ip[22:], p.dport)
		ts := base.Add(p.at)
		rec := make([]byte, 16)
		binary.LittleEndian.PutUint32(rec, uint32(ts.Unix()))
		binary.LittleEndian.PutUint32(rec[4:], uint32(ts.Nanosecond()/1000))
		binary.LittleEndian.PutUint32(rec[8:], uint32(len(ip)))
		binary.LittleEndian.PutUint32(rec[12:], uint32(len(ip)))
		b = append(append(b, rec...), ip...)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// transferPkts: a client request, 10 server datagrams of 1000 bytes, an ACK, and a TCP flow
// (cross traffic) that a QUIC chart leaves out.
func transferPkts() []pkt {
	ps := []pkt{{at: 0, proto: 17, sport: 50000, dport: 443, payload: 1200, fromClient: true}}
	for i := 1; i <= 10; i++ {
		ps = append(ps, pkt{at: time.Duration(i) * 10 * time.Millisecond, proto: 17, sport: 443, dport: 50000, payload: 1000})
	}
	ps = append(ps, pkt{at: 120 * time.Millisecond, proto: 17, sport: 50000, dport: 443, payload: 40, fromClient: true},
		pkt{at: 130 * time.Millisecond, proto: 6, sport: 5201, dport: 40000, payload: 1400})
	return ps
}

// fixture copies testdata/fixture-out into a temporary out/ with traces and the runs' order.
func fixture(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	err := filepath.WalkDir("testdata/fixture-out", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("testdata/fixture-out", p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(out, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(out, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	q := filepath.Join(out, "quic", newQuic)
	for _, cell := range []string{"ngtcp2_quic-go/handshake", "quic-go_quic-go/handshake", "quic-go_quic-go/transfer/r1",
		"quic-go_quic-go/transfer/r2", "quic-go_quic-go/transfer/r3", "quic-go_quic-go/goodput/1", "quic-go_quic-go/goodput/2", "quic-go_quic-go/goodput/3"} {
		for _, name := range []string{"trace_node_left.pcap", "trace_node_right.pcap", "trace_node_right.pcapng"} {
			writePcap(t, filepath.Join(q, cell, "sim", name), transferPkts())
		}
	}
	writePcap(t, filepath.Join(out, "h2", h2Run, "go-h2_h2spec", "h2spec", "sim", "trace_node_right.pcap"),
		[]pkt{{proto: 6, sport: 40000, dport: 443, payload: 500, fromClient: true}, {at: time.Millisecond, proto: 6, sport: 443, dport: 40000, payload: 900}})
	old := time.Now().Add(-2 * time.Hour)
	for i, r := range []string{"quic/" + oldQuic, "quic/" + newQuic, "h2/" + h2Run, "grpcweb/" + gwRun} {
		at := old.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(filepath.Join(out, r, "results.jsonl"), at, at); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func TestSelectLatestAndPrevious(t *testing.T) {
	out := fixture(t)
	sel, err := Select(out, registry, nil, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if sel.Runs[SuiteQUIC].ID != newQuic || sel.Diffs[SuiteQUIC] == nil || sel.Diffs[SuiteQUIC].ID != oldQuic {
		t.Fatalf("quic: shown %v, diff %v", sel.Runs[SuiteQUIC].RunRef, sel.Diffs[SuiteQUIC])
	}
	if sel.Runs[SuiteH2].ID != h2Run || sel.Diffs[SuiteH2] != nil || sel.Runs[SuiteGrpcweb].ID != gwRun {
		t.Fatalf("h2 %v (diff %v), grpcweb %v", sel.Runs[SuiteH2], sel.Diffs[SuiteH2], sel.Runs[SuiteGrpcweb])
	}
	// A newer run written later wins; the latest symlink is not a run of its own.
	os.Symlink(newQuic, filepath.Join(out, "quic", "latest"))
	refs, _ := ListRuns(out, SuiteQUIC)
	if len(refs) != 2 || refs[0].ID != newQuic {
		t.Fatalf("runs %v", refs)
	}
	// --runs names the older one: nothing before it to compare with; --diff names it for the newer.
	if sel, err = Select(out, registry, []RunRef{{SuiteQUIC, oldQuic}}, nil, false); err != nil || sel.Runs[SuiteQUIC].ID != oldQuic || sel.Diffs[SuiteQUIC] != nil {
		t.Fatalf("%v %+v", err, sel)
	}
	if sel, err = Select(out, registry, nil, []RunRef{{SuiteQUIC, oldQuic}}, true); err != nil || sel.Diffs[SuiteQUIC].ID != oldQuic {
		t.Fatalf("%v %+v", err, sel)
	}
	if sel, err = Select(out, registry, nil, nil, true); err != nil || len(sel.Diffs) != 0 {
		t.Fatalf("--diff none: %v %+v", err, sel.Diffs)
	}
	// Duplicate cells (a journal written twice): the last line counts.
	r, err := LoadRun(out, RunRef{SuiteQUIC, newQuic})
	if err != nil || len(r.Results) != 5 {
		t.Fatalf("%v %d", err, len(r.Results))
	}
}

func TestSelectBadInput(t *testing.T) {
	out := fixture(t)
	for _, c := range []struct {
		runs, diffs []RunRef
		want        string
	}{
		{[]RunRef{{SuiteQUIC, "nosuch"}}, nil, "--runs quic/nosuch: no such run"},
		{nil, []RunRef{{SuiteH2, "nosuch"}}, "--diff h2/nosuch: no such run"},
		{nil, []RunRef{{SuiteQUIC, newQuic}}, "--diff quic/" + newQuic + ": the run shown itself"},
	} {
		if _, err := Select(out, registry, c.runs, c.diffs, false); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %v: %v, want %q", c.runs, c.diffs, err, c.want)
		}
	}
	for _, bad := range []string{"quic", "ftp/x", "quic/Bad ID", "quic/a,quic/b"} {
		if _, err := ParseRunRefs(bad, registry.Names()); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if refs, err := ParseRunRefs(" quic/a, h2/b ", registry.Names()); err != nil || len(refs) != 2 || refs[1] != (RunRef{SuiteH2, "b"}) {
		t.Errorf("%v %v", refs, err)
	}
}

// A results.jsonl with a broken line is an error naming the file and the line.
func TestCorruptedJournalNamesFileAndLine(t *testing.T) {
	out := fixture(t)
	p := filepath.Join(out, "h2", h2Run, "results.jsonl")
	data, _ := os.ReadFile(p)
	lines := strings.SplitAfter(string(data), "\n")
	os.WriteFile(p, []byte(lines[0]+lines[1]+"{\"server\": \"go-h2\", oops\n"+lines[2]), 0o644)
	_, err := Select(out, registry, nil, nil, false)
	if err == nil || !strings.Contains(err.Error(), p+":3:") {
		t.Fatalf("got %v, want an error naming %s:3", err, p)
	}
	// The run before the one shown is the report's own pick: a broken one is said, not fatal.
	os.WriteFile(p, data, 0o644)
	old := filepath.Join(out, "quic", oldQuic, "results.jsonl")
	os.WriteFile(old, []byte("garbage\n"), 0o644)
	before := time.Now().Add(-3 * time.Hour)
	os.Chtimes(old, before, before)
	sel, err := Select(out, registry, nil, nil, false)
	if err != nil || sel.Diffs[SuiteQUIC] != nil || len(sel.Notes[SuiteQUIC]) != 1 || !strings.Contains(sel.Notes[SuiteQUIC][0], old+":1:") {
		t.Fatalf("%v %+v", err, sel)
	}
	if _, err := Select(out, registry, nil, []RunRef{{SuiteQUIC, oldQuic}}, false); err == nil || !strings.Contains(err.Error(), old+":1:") {
		t.Fatalf("a named --diff run that is broken: %v", err)
	}
}

// fakeDocker is a docker CLI for the packet lists: `image inspect` answers (unless there is no
// image), `run` writes a one-packet list for every job of the batch; each call is logged.
func fakeDocker(t *testing.T, image bool) (*tshark.Tool, string) {
	t.Helper()
	dir := t.TempDir()
	log := filepath.Join(dir, "calls.log")
	noImage := ""
	if !image {
		noImage = `echo "Error: No such image" >&2; exit 1`
	}
	script := `#!/bin/bash
echo "$1 $2" >>` + log + `
case "$1" in
image) ` + noImage + `
  exit 0 ;;
run) ;;
*) exit 1 ;;
esac
declare -A bind
while [ $# -gt 0 ]; do
  if [ "$1" = -v ]; then IFS=: read -r h c _ <<<"$2"; bind[$c]=$h; shift; fi
  shift
done
for f in "${bind[/c]}"/jobs-*.tsv; do
  while IFS=$'\t' read -r in dir decode mk keys; do
    [ -f "${bind[/o]}${in#/o}" ] || exit 2
    if [ "$mk" != - ]; then
      cp "${bind[/o]}${in#/o}" "${bind[/c]}${mk#/c}"
      if [ "$keys" != - ]; then echo secrets; else echo plain; fi >"${bind[/c]}${dir#/c}/pcapng.kind"
    fi
    printf '1\t0.000000000\t198.18.0.100\t\t198.18.1.100\t\t1242\tInitial, DCID=abcd, PKN: 0, CRYPTO, PADDING (%s)\n' "$decode" >"${bind[/c]}${dir#/c}/packets.tsv"
    echo done
  done <"$f"
done
`
	bin := filepath.Join(dir, "docker")
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return &tshark.Tool{Docker: &docker.CLI{Bin: bin}}, log
}

func generate(t *testing.T, out string, tshark *tshark.Tool, traces string) string {
	t.Helper()
	sel, err := Select(out, registry, nil, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.Abs("../..")
	var progress strings.Builder
	index, err := Generate(context.Background(), sel, Options{Out: out, Root: root, Traces: traces, Tshark: tshark, Progress: &progress, Now: time.Now(),
		Baselines: fixtureBaselines(t)})
	if err != nil {
		t.Fatal(err)
	}
	return index
}

func read(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

var (
	tdCell = regexp.MustCompile(`<td class="cell (succeeded|failed|unsupported|unsupported-at-run-time)((?: [a-z-]+)?)" data-client="([^"]*)" data-server="([^"]*)" ` +
		`data-case="([^"]*)" title="[^"]*"( data-was="[a-z]+")?><a href="([^"]+)">([^<]+?)(?: <small class="subs">([^<]+)</small>)?</a></td>`)
	href = regexp.MustCompile(`<a class="([a-z]+)" href="([^"]+)"`)
)

// The dashboard: a section per suite with the nav, the filters, one matrix table per case with
// verdict cells linking to existing pages, the changed cell outlined, measurements, uploads and
// the oracle column; no external resource.
func TestDashboard(t *testing.T) {
	out := fixture(t)
	tshark, _ := fakeDocker(t, true)
	index := generate(t, out, tshark, TracesAll)
	if index != filepath.Join(out, "report", "index.html") {
		t.Fatalf("index %s", index)
	}
	page := read(t, index)
	for _, want := range []string{`<a href="#quic">`, `<a href="#h2">`, `<a href="#grpcweb">`, `<section id="quic">`, `<section id="h2">`,
		`<section id="grpcweb">`, `<input id="filter-impl" type="search"`, `<select id="filter-case"><option value="">`,
		`<option value="handshake">handshake (H)</option>`, `<table class="matrix" data-suite="quic" data-case="handshake">`,
		`<table class="matrix" data-suite="h2" data-case="h2spec">`, `<table class="matrix" data-suite="grpcweb" data-case="custom_metadata">`,
		`<script>`, `href="diff-quic.html"`, `Measurement: goodput`, `Upload BDP`, `<svg`, `9550 (± 50)`} {
		if !strings.Contains(page, want) {
			t.Errorf("index lacks %q", want)
		}
	}
	for _, bad := range []string{`src="http`, `href="http`, `<script src`, `href="/`, `@import`} {
		if strings.Contains(page, bad) {
			t.Errorf("index has an external or absolute reference %q", bad)
		}
	}
	if strings.Contains(page, `id="fuzz"`) || strings.Contains(page, `id="coverage"`) {
		t.Error("fuzz/coverage sections without out/fuzz, out/coverage")
	}
	cells := tdCell.FindAllStringSubmatch(page, -1)
	if len(cells) != 5+4+4 {
		t.Fatalf("%d verdict cells, want 13:\n%s", len(cells), page)
	}
	got := map[string]string{}
	for _, c := range cells {
		text := c[1] + c[2] + " " + c[8]
		if c[9] != "" {
			text += " " + c[9]
		}
		got[c[3]+"|"+c[4]+"|"+c[5]] = text + c[6]
		if _, err := os.Stat(filepath.Join(out, "report", filepath.FromSlash(c[7]))); err != nil {
			t.Errorf("cell %s links to %s: %v", c[0], c[7], err)
		}
	}
	for k, want := range map[string]string{
		"quic-go|ngtcp2|handshake":                `failed expected H data-was="succeeded"`,
		"quic-go|quic-go|transfer":                "succeeded DC ~2/3",
		"curl|quic-go|handshake":                  "unsupported H",
		"h2spec|go-h2|h2spec":                     "failed regression S 1/6", // its sub-case http2/6.5.3/1 is no entry's
		"grpc-go|grpc-go@wirelab|custom_metadata": "failed expected CM",      // passed through the chain, failed direct
		"grpc-go|grpc-go@direct|custom_metadata":  "failed expected CM",
		"grpc-go|grpc-go@wirelab|empty_unary":     "failed regression E",
		"h2upload|go-h2|upload-fast-h2":           "succeeded U2",
		"quic-go|quic-go|goodput":                 "succeeded G",
		"quic-go|quic-go|handshake":               "succeeded H",
		"h2spec|nginx|h2spec":                     "succeeded S",
		"h2upload|go-h2|upload-fast-h1":           "succeeded stale U1", // its entry expects a failure
		"grpc-go|grpc-go@direct|empty_unary":      "succeeded E",
	} {
		if got[k] != want {
			t.Errorf("%s: %q, want %q", k, got[k], want)
		}
	}
	// The QUIC tables hold every client and server of the run; the oracle column beside the chain.
	if !strings.Contains(page, `<td class="oracle failed" title="direct: FATAL: metadata missing">✕</td>`) {
		t.Error("no oracle cell for custom_metadata through wirelab")
	}
	diff := read(t, filepath.Join(out, "report", "diff-quic.html"))
	if !strings.Contains(diff, "ngtcp2_quic-go/handshake") || strings.Count(diff, `<tr class="changed"`) != 1 ||
		!strings.Contains(diff, "2 kept it") || !strings.Contains(diff, "2 only in <code>"+newQuic) {
		t.Errorf("diff page:\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(out, "report", "style.css")); err != nil {
		t.Error(err)
	}
}

// A cell page: label, verdict and reason, rerun command, every evidence link relative and
// resolving to an existing file under out/, the chart, the packet list.
func TestCellPageLinksResolve(t *testing.T) {
	out := fixture(t)
	tshark, _ := fakeDocker(t, true)
	generate(t, out, tshark, TracesAll)
	dir := filepath.Join(out, "report", "cells", "quic", newQuic)
	page := read(t, filepath.Join(dir, "ngtcp2_quic-go__handshake.html"))
	for _, want := range []string{"<h1>ngtcp2_quic-go/handshake</h1>", `<p class="verdict failed expected">failed: handshake: 2 handshakes`, "The gate: expected by the baseline.",
		`<pre class="rerun">wirelab quic --servers ngtcp2 --clients quic-go --tests handshake --seed 7</pre>`, `<svg`, `class="chart"`,
		`<pre class="tshark">`, "Initial, DCID=abcd", `href="../../../index.html"`, "Seed 7, profile simple-p2p", "1 (loss 1, GE 0", "packets_in", "listening on 443",
		"13 packets, 12 of them between client and server"} {
		if !strings.Contains(page, want) {
			t.Errorf("cell page lacks %q", want)
		}
	}
	classes := map[string]int{}
	for _, m := range href.FindAllStringSubmatch(page, -1) {
		classes[m[1]]++
		link := m[2]
		if strings.HasPrefix(link, "/") || strings.Contains(link, "://") {
			t.Errorf("absolute link %s", link)
			continue
		}
		u, _ := url.PathUnescape(link)
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(u))); err != nil {
			t.Errorf("%s link %s does not resolve: %v", m[1], link, err)
		}
		if !strings.HasPrefix(link, "../../../../quic/"+newQuic+"/ngtcp2_quic-go/handshake/") {
			t.Errorf("%s link %s is not into the cell's folder", m[1], link)
		}
	}
	if classes["pcapng"] != 1 || classes["pcap"] != 2 || classes["qlog"] != 2 || classes["log"] < 2 || classes["keylog"] != 1 {
		t.Errorf("evidence links by class: %v", classes)
	}
	if strings.Contains(page, "aaaaaaaaaa") {
		t.Error("the served files (www/) are linked")
	}
	// A repeated cell: its repetitions, and the trace of the one that failed.
	rep := read(t, filepath.Join(dir, "quic-go_quic-go__transfer.html"))
	for _, want := range []string{"4242", "repetition r2", "of repetition r2", "2/3 (flaky)"} {
		if !strings.Contains(rep, want) {
			t.Errorf("repeated cell page lacks %q", want)
		}
	}
	// An unsupported cell that never ran: the command that would run it, no evidence.
	uns := read(t, filepath.Join(dir, "quic-go_curl__handshake.html"))
	if !strings.Contains(uns, `<pre class="rerun">wirelab quic --servers quic-go --clients curl --tests handshake</pre>`) || !strings.Contains(uns, "did not run") {
		t.Errorf("unsupported cell page:\n%s", uns)
	}
}

// The packet lists come from one tshark container for all cells, then from the cache; without
// the tshark image the pages say so and the report still succeeds; --traces narrows the work.
func TestPacketListsBatchedAndCached(t *testing.T) {
	out := fixture(t)
	tshark, log := fakeDocker(t, true)
	generate(t, out, tshark, TracesAll)
	calls := read(t, log)
	if strings.Count(calls, "run ") != 1 {
		t.Fatalf("docker calls:\n%s", calls)
	}
	page := read(t, filepath.Join(out, "report", "cells", "quic", newQuic, "quic-go_quic-go__handshake.html"))
	if strings.Contains(page, "\x1b") || !strings.Contains(page, "server-1  | listening on 443") {
		t.Errorf("output.txt's tail keeps terminal escapes:\n%s", page)
	}
	if !strings.Contains(page, "udp.port==443,quic") || !strings.Contains(page, "and 12 more packets (13 in the trace") {
		t.Errorf("packet list:\n%s", page)
	}
	// A trace the run left without a pcapng (h2spec writes no keylog): the report makes one.
	h2page := read(t, filepath.Join(out, "report", "cells", "h2", h2Run, "go-h2_h2spec__h2spec.html"))
	m := regexp.MustCompile(`<a class="pcapng" href="([^"]+)"`).FindStringSubmatch(h2page)
	if m == nil || !strings.HasPrefix(m[1], "../../../../report/cache/h2/"+h2Run+"/") || !strings.Contains(h2page, "no TLS secrets") {
		t.Fatalf("h2 cell page without the report's pcapng:\n%s", h2page)
	} else if st, err := os.Stat(filepath.Join(out, "report", "cells", "h2", h2Run, filepath.FromSlash(m[1]))); err != nil || st.Size() == 0 {
		t.Errorf("made pcapng %s: %v", m[1], err)
	}
	os.Remove(log)
	generate(t, out, tshark, TracesAll)
	if calls, _ := os.ReadFile(log); strings.Contains(string(calls), "run ") {
		t.Errorf("second report ran tshark again:\n%s", calls)
	}
	// A trace that changed is listed again.
	p := filepath.Join(out, "quic", newQuic, "quic-go_quic-go", "handshake", "sim", "trace_node_right.pcapng")
	writePcap(t, p, transferPkts()[:3])
	later := time.Now().Add(time.Minute)
	os.Chtimes(p, later, later)
	generate(t, out, tshark, TracesAll)
	if calls := read(t, log); strings.Count(calls, "run ") != 1 {
		t.Errorf("changed trace: docker calls\n%s", calls)
	}

	// --traces none does no trace work, and still shows what earlier reports cached.
	os.Remove(log)
	generate(t, out, tshark, TracesNone)
	if calls, _ := os.ReadFile(log); len(calls) > 0 {
		t.Errorf("--traces none called docker:\n%s", calls)
	}
	page = read(t, filepath.Join(out, "report", "cells", "quic", newQuic, "ngtcp2_quic-go__handshake.html"))
	if !strings.Contains(page, "Initial, DCID=abcd") || !strings.Contains(page, "(cached by an earlier report)") || !strings.Contains(page, "dir-server") {
		t.Errorf("--traces none lost the cached summaries:\n%s", page)
	}

	out2 := fixture(t)
	missing, _ := fakeDocker(t, false)
	generate(t, out2, missing, TracesFailed)
	failed := read(t, filepath.Join(out2, "report", "cells", "quic", newQuic, "ngtcp2_quic-go__handshake.html"))
	passed := read(t, filepath.Join(out2, "report", "cells", "quic", newQuic, "quic-go_quic-go__handshake.html"))
	if !strings.Contains(failed, "is not available here") || !strings.Contains(passed, "--traces failed") {
		t.Errorf("no image: failed cell\n%s\npassed cell\n%s", failed, passed)
	}
}

// The time-sequence: each direction's frame bytes add up over time; QUIC leaves TCP out.
func TestTimeSeq(t *testing.T) {
	p := filepath.Join(t.TempDir(), "t.pcap")
	writePcap(t, p, transferPkts())
	ts, err := ReadTimeSeq(p, 17)
	if err != nil {
		t.Fatal(err)
	}
	last := func(s [][2]float64) [2]float64 { return s[len(s)-1] }
	if ts.Packets != 13 || ts.Counted != 12 || len(ts.ToServer) != 2 || len(ts.ToClient) != 10 ||
		last(ts.ToClient) != [2]float64{0.1, 10 * 1028} || last(ts.ToServer)[1] != 1228+68 {
		t.Fatalf("%+v", ts)
	}
	if tcp, _ := ReadTimeSeq(p, 6); tcp.Counted != 0 {
		t.Errorf("the iperf flow counted as lab traffic: %+v", tcp)
	}
	if svg := ts.Chart("x"); !strings.Contains(svg, `class="chart"`) || !strings.Contains(svg, "dir-server") {
		t.Errorf("chart %s", svg)
	}
	os.WriteFile(p, []byte("not a pcap at all, really"), 0o644)
	if _, err := ReadTimeSeq(p, 17); err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("%v", err)
	}
	many := make([][2]float64, 10000)
	for i := range many {
		many[i] = [2]float64{float64(i), float64(i * 3)}
	}
	if r := reduce(many, 100); len(r) > 110 || r[0] != many[0] || r[len(r)-1] != many[9999] {
		t.Errorf("reduce: %d points", len(r))
	}
}

func TestPageNamesAreFlatAndUnique(t *testing.T) {
	used := map[string]bool{}
	a := pageName("grpc-go@wirelab_grpc-go/empty_unary", used)
	b := pageName("grpc-go@wirelab_grpc-go/empty unary", used)
	c := pageName("grpc-go@wirelab_grpc-go/empty?unary", used)
	if a != "grpc-go@wirelab_grpc-go__empty_unary" || b != a+"-2" || c != a+"-3" {
		t.Errorf("%s %s %s", a, b, c)
	}
}

// Showing another run removes the pages of the one shown before (its cache stays while the run
// exists); the cache of a run removed from out/ goes.
func TestPruneOldPagesAndCaches(t *testing.T) {
	out := fixture(t)
	generate(t, out, nil, TracesAll)
	sel, err := Select(out, registry, []RunRef{{SuiteQUIC, oldQuic}}, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(out, "report", "cache", "quic", "gone-run"), 0o755)
	if _, err := Generate(context.Background(), sel, Options{Out: out, Traces: TracesAll, Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{
		"cells/quic/" + newQuic: false, "cells/quic/" + oldQuic: true, "cache/quic/" + newQuic: true, "cache/quic/gone-run": false,
	} {
		if isDir(filepath.Join(out, "report", p)) != want {
			t.Errorf("%s: exists %v, want %v", p, !want, want)
		}
	}
}
