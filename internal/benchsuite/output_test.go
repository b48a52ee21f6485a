package benchsuite

import (
	"bytes"
	"encoding/xml"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/matrix"
)

// fakeRun writes a bench.json per cell of a 1-server plan on lte and the loss sweep, with
// download times that grow with size and loss and sim drops that grow with the repetition, and
// returns the plan and the results.
func fakeRun(t *testing.T) (*Plan, []matrix.Result) {
	return fakeSweep(t, "", "", "curl")
}

// fakeSweep is fakeRun over the congestion controls, GSO modes and clients named ("": the
// defaults).
func fakeSweep(t *testing.T, congestion, gso, clients string) (*Plan, []matrix.Result) {
	return fakeSelection(t, Selection{Congestion: congestion, GSO: gso, Clients: clients})
}

// fakeSelection is fakeRun with the sweeps and clients of sel.
func fakeSelection(t *testing.T, sel Selection) (*Plan, []matrix.Result) {
	t.Helper()
	c := loadRepo(t)
	if sel.Servers == "" {
		sel.Servers = "nginx,go-h2"
	}
	sel.Profiles, sel.Sizes, sel.Reps = "lte,lossy-0,lossy-2", "1KB,1MB", 3
	p, err := c.Select(testServers, testClients, sel)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var results []matrix.Result
	for _, cell := range p.PlanCells(nil) {
		s, cl, pr, prof, v := p.lookup(cell.Cell)
		res := matrix.Result{Cell: cell.Cell, Result: matrix.Succeeded, Dir: filepath.Join(dir, cell.Path())}
		if cell.Skip { // what the runner records for a cell the plan skips
			res.Result, res.Reason = matrix.Unsupported, cell.Why
			results = append(results, res)
			continue
		}
		rec := CellRecord{Server: s.Name, CC: v.CC, GSO: v.GSO, HyStart: v.HyStart, Client: cl.Name, Protocol: pr.Name, Profile: prof.Name}
		for i := 1; i <= p.Repetitions; i++ {
			rep := RepRecord{Rep: i, Seed: matrix.RepeatSeed(7, i), SimDrops: SimDrops{Queue: uint64(10 * i), Loss: uint64(i)},
				ServerCPUms: float64(i) * 1001}
			for _, size := range p.Sizes {
				ms := float64(size.Bytes)/1000 + float64(i)*10 + float64(len(prof.Name))
				if pr.Name == "h3" {
					ms *= 0.8
				}
				if cl.Name != ReferenceClient {
					ms *= 0.5
				}
				rep.Samples = append(rep.Samples, Sample{Size: size.Name, TTFBms: 50, TotalMs: ms})
			}
			rec.Reps = append(rec.Reps, rep)
		}
		must(t, os.MkdirAll(res.Dir, 0o755))
		must(t, rec.Write(filepath.Join(res.Dir, RecordFile)))
		res.Values = rec.Values(p.Sizes)
		results = append(results, res)
	}
	return p, results
}

// bench.csv has one row per server, protocol, profile and size that ran, with the median and
// spread of its repetitions and their seeds, and reads back as written.
func TestCSVRowsAndRoundTrip(t *testing.T) {
	p, results := fakeRun(t)
	rows := Rows(p, results)
	if len(rows) != (3+2)*3*2 { // nginx: 3 protocols, go-h2: 2 (no h3); 3 profiles, 2 sizes
		t.Fatalf("%d rows", len(rows))
	}
	r := rows[0]
	if r.Server != "nginx" || r.Protocol != "h1" || r.Profile != "lte" || r.Size != "1KB" || r.Reps != 3 {
		t.Fatalf("first row %+v", r)
	}
	// 1 + 10i + 3 for i = 1..3: 14, 24, 34
	if r.Time != (Spread{Median: 24, P25: 19, P75: 29, Min: 14, Max: 34}) || r.TTFBMedian != 50 || len(r.Seeds) != 3 || r.Seeds[0] != 7 ||
		r.QueueDrops != 20 || r.LossDrops != 2 || r.CC != "" || math.Abs(r.CPUmsPerMB-2000) > 1e-9 { // 2002 ms over 1 KB + 1 MB
		t.Errorf("first row %+v", r)
	}
	path := filepath.Join(t.TempDir(), "bench.csv")
	must(t, WriteCSV(path, rows))
	back, err := ReadCSV(path)
	if err != nil || len(back) != len(rows) || back[0].Time != r.Time || back[0].Seeds[2] != r.Seeds[2] || back[0].QueueDrops != 20 {
		t.Fatalf("round trip: %v %+v", err, back)
	}
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), "server,congestion_control,gso,hystart,client,protocol,profile,size,bytes,reps,median_ms,p25_ms,p75_ms,min_ms,max_ms,"+
		"ttfb_median_ms,sim_queue_drops_median,sim_loss_drops_median,server_cpu_ms_per_mb,client_cpu_ms_per_mb,seeds,note\n") {
		t.Errorf("header: %s", strings.SplitN(string(data), "\n", 2)[0])
	}
	must(t, os.WriteFile(path, bytes.Replace(data, []byte(",24.00,"), []byte(",fast,"), 1), 0o644))
	if _, err := ReadCSV(path); err == nil || !strings.Contains(err.Error(), "bench.csv:2: median_ms \"fast\"") {
		t.Errorf("bad number: %v", err)
	}
}

// A congestion-control sweep: every server once per algorithm, as the slot <server>@<cc>, and
// the rows say the algorithm; an algorithm the bench file does not list is a --congestion error.
func TestCongestionSweep(t *testing.T) {
	p, results := fakeSweep(t, "bbr,cubic", "", "curl")
	if got := strings.Join(p.ServerNames(), " "); got != "nginx@bbr nginx@cubic go-h2@bbr go-h2@cubic" {
		t.Errorf("slots %s", got)
	}
	// TCP runs every algorithm (the kernel's); nginx's QUIC has no switch: its manifest declares
	// none, so its h3 cells are unsupported in the plan.
	rows := Rows(p, results)
	if len(rows) != 2*(2+2)*3*2 || rows[0].Server != "nginx@bbr" || rows[0].CC != "bbr" {
		t.Fatalf("%d rows, first %+v", len(rows), rows[0])
	}
	for _, r := range results {
		if r.Server == "nginx" && r.Get(AxisProtocol) == "h3" &&
			(r.Result != matrix.Unsupported || !strings.Contains(r.Reason, "images/nginx/manifest.yml: switches.quic_cc has no ")) {
			t.Errorf("%s %s: %s %q", r.Label(), r.Get(AxisVariant), r.Result, r.Reason)
		}
	}
	if s, v := SplitSlot("nginx@bbr"); s != "nginx" || v != (Variant{CC: "bbr"}) {
		t.Errorf("split %s %+v", s, v)
	}
	if _, err := loadRepo(t).Select(testServers, testClients, Selection{Congestion: "vegas"}); err == nil || !strings.Contains(err.Error(), "--congestion") {
		t.Errorf("unknown algorithm: %v", err)
	}
}

// A UDP GSO sweep: every server once per mode, as the slot <server>@gso-<mode>; only the h3 cells
// run (GSO is the QUIC stack's switch: the TCP cells are unsupported with the reason, and the plan
// skips them), the rows and the records say the mode.
func TestGSOSweep(t *testing.T) {
	p, results := fakeSweep(t, "", "on,off", "curl")
	if got := strings.Join(p.ServerNames(), " "); got != "nginx@gso-on nginx@gso-off go-h2@gso-on go-h2@gso-off" {
		t.Errorf("slots %s", got)
	}
	for _, r := range results {
		wantRun := clientProto(r.Cell) == "curl-h3" && r.Server == "nginx"
		if (r.Result == matrix.Succeeded) != wantRun {
			t.Errorf("%s %s: %s %q", r.Server, r.Client, r.Result, r.Reason)
		}
		if clientProto(r.Cell) == "curl-h2" && !strings.Contains(r.Reason, "--gso switches the QUIC stack's UDP GSO: h2 over TCP") {
			t.Errorf("%s %s: reason %q", r.Server, r.Client, r.Reason)
		}
	}
	for _, pc := range p.PlanCells(nil) {
		if pc.Skip != (clientProto(pc.Cell) != "curl-h3" || pc.Server == "go-h2") {
			t.Errorf("plan: %s skip %v", pc.Label(), pc.Skip)
		}
	}
	rows := Rows(p, results)
	if len(rows) != 2*3*2 || rows[0].Server != "nginx@gso-on" || rows[0].GSO != "on" || rows[0].CC != "" || rows[0].Protocol != "h3" ||
		rows[len(rows)-1].Server != "nginx@gso-off" || rows[len(rows)-1].GSO != "off" {
		t.Fatalf("%d rows, first %+v", len(rows), rows[0])
	}
	rec, err := ReadRecord(filepath.Join(results[2*3].Dir, RecordFile)) // nginx@gso-on, h3, lte
	if err != nil || rec.GSO != "on" || rec.Protocol != "h3" {
		t.Errorf("bench.json: %v %+v", err, rec)
	}
	path := filepath.Join(t.TempDir(), "bench.csv")
	must(t, WriteCSV(path, rows))
	data, _ := os.ReadFile(path)
	if line := strings.SplitN(string(data), "\n", 3)[1]; !strings.HasPrefix(line, "nginx@gso-on,,on,,curl,h3,lte,1KB,1000,3,") {
		t.Errorf("first row: %s", line)
	}
	back, err := ReadCSV(path)
	if err != nil || back[0].GSO != "on" || back[0].CC != "" || back[0].Protocol != "h3" || back[0].Time.Median != 19.2 || back[0].Note != rows[0].Note {
		t.Errorf("round trip: %v %+v", err, back[0])
	}
	s := Summarize(p, 7, rows, nil)
	if s.Servers[1] != "nginx@gso-off" || s.Rows[0].GSO != "on" {
		t.Errorf("result.json: %v %+v", s.Servers, s.Rows[0])
	}
	var b bytes.Buffer
	PrintSummary(&b, rows)
	if !strings.Contains(b.String(), "lte         1KB    nginx@gso-off ") {
		t.Errorf("table:\n%s", b.String())
	}
}

// Both sweeps at once: <server>@<algorithm>+gso-<mode>, congestion control outer.
// A HyStart++ sweep is a QUIC switch like GSO: <server>@<cc>+hystart-<mode>, h3 cells only, the
// mode in the rows, the records and the csv; an unknown mode is --hystart's error.
func TestHyStartSweep(t *testing.T) {
	p, results := fakeSelection(t, Selection{Servers: "haproxy,go-h2", Congestion: "cubic", HyStart: "on,off", Clients: "curl"})
	if got := strings.Join(p.ServerNames(), " "); got != "haproxy@cubic+hystart-on haproxy@cubic+hystart-off go-h2@cubic+hystart-on go-h2@cubic+hystart-off" {
		t.Errorf("slots %s", got)
	}
	for _, r := range results {
		if clientProto(r.Cell) == "curl-h2" && !strings.Contains(r.Reason, "--hystart switches the QUIC stack's HyStart++: h2 over TCP") {
			t.Errorf("%s %s: %s %q", r.Server, r.Client, r.Result, r.Reason)
		}
	}
	rows := Rows(p, results)
	if len(rows) != 2*3*2 || rows[0].HyStart != "on" || rows[len(rows)-1].HyStart != "off" || rows[0].CC != "cubic" {
		t.Fatalf("%d rows, first %+v", len(rows), rows[0])
	}
	path := filepath.Join(t.TempDir(), "bench.csv")
	must(t, WriteCSV(path, rows))
	back, err := ReadCSV(path)
	if err != nil || back[len(back)-1].HyStart != "off" || back[0].Client != "curl" || math.Abs(back[0].Time.Median-rows[0].Time.Median) > 0.01 {
		t.Errorf("round trip: %v %+v", err, back[len(back)-1])
	}
	if _, err := loadRepo(t).Select(testServers, testClients, Selection{HyStart: "maybe"}); err == nil || !strings.Contains(err.Error(), `--hystart: unknown HyStart++ mode "maybe"`) {
		t.Errorf("unknown mode: %v", err)
	}
}

func TestCongestionAndGSOSweep(t *testing.T) {
	p, results := fakeSelection(t, Selection{Servers: "haproxy,go-h2", Congestion: "reno,cubic", GSO: "off", Clients: "curl"})
	if got := strings.Join(p.ServerNames(), " "); got != "haproxy@reno+gso-off haproxy@cubic+gso-off go-h2@reno+gso-off go-h2@cubic+gso-off" {
		t.Errorf("slots %s", got)
	}
	rows := Rows(p, results)
	if len(rows) != 2*3*2 || rows[0].CC != "reno" || rows[0].GSO != "off" {
		t.Errorf("%d rows, first %+v", len(rows), rows[0])
	}
}

// Slot and SplitSlot are each other's inverse for every combination; VariantNames lists them all.
func TestSlotNames(t *testing.T) {
	for slot, v := range map[string]Variant{
		"nginx": {}, "nginx@bbr": {CC: "bbr"}, "quic-go@gso-off": {GSO: "off"}, "quic-go@reno+gso-on": {CC: "reno", GSO: "on"},
		"ngtcp2@hystart-off": {HyStart: "off"}, "ngtcp2@cubic+hystart-on": {CC: "cubic", HyStart: "on"},
		"ngtcp2@bbr+gso-on+hystart-off": {CC: "bbr", GSO: "on", HyStart: "off"},
	} {
		server, _, _ := strings.Cut(slot, "@")
		if got := Slot(server, v); got != slot {
			t.Errorf("Slot(%s, %+v) = %s", server, v, got)
		}
		if s, back := SplitSlot(slot); s != server || back != v {
			t.Errorf("SplitSlot(%s) = %s %+v", slot, s, back)
		}
	}
	all := VariantNames([]string{"bbr"}, []string{"on", "off"}, nil)
	if got := strings.Join(all, " "); got != " gso-on gso-off bbr bbr+gso-on bbr+gso-off" {
		t.Errorf("all variants: %q", got)
	}
	if all := VariantNames(nil, nil, []string{"on", "off"}); strings.Join(all, " ") != " hystart-on hystart-off" {
		t.Errorf("all variants: %q", all)
	}
}

// A cell whose downloads failed keeps its rows, with the repetitions that passed and the reason.
func TestRowsOfAFailedCell(t *testing.T) {
	p, results := fakeRun(t)
	results[0].Result, results[0].Reason = matrix.Failed, "1 of 3 repetitions failed; repetition 2 (seed 9): 1MB over h1: 12 bytes arrived, want 1000000"
	rec, _ := ReadRecord(filepath.Join(results[0].Dir, RecordFile))
	rec.Reps[1].Samples = rec.Reps[1].Samples[:1]
	must(t, rec.Write(filepath.Join(results[0].Dir, RecordFile)))
	rows := Rows(p, results)
	if rows[0].Reps != 3 || rows[1].Reps != 2 || !strings.Contains(rows[1].Note, "12 bytes arrived") {
		t.Errorf("rows %+v / %+v", rows[0], rows[1])
	}
}

// The chart set: time vs size per profile, the h3/h2 ratio per profile, time vs loss per size;
// every file is there and is XML.
func TestChartsWritten(t *testing.T) {
	p, results := fakeRun(t)
	rows := Rows(p, results)
	dir := t.TempDir()
	set, err := WriteCharts(dir, rows, map[string]float64{"lossy-0": 0, "lossy-2": 2})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, c := range set {
		files = append(files, c.File)
	}
	want := "time-vs-size-lte.svg time-vs-size-lossy-0.svg time-vs-size-lossy-2.svg h3-h2-ratio-lte.svg h3-h2-ratio-lossy-0.svg " +
		"h3-h2-ratio-lossy-2.svg time-vs-loss-1KB.svg time-vs-loss-1MB.svg"
	if strings.Join(files, " ") != want {
		t.Errorf("charts %s", strings.Join(files, " "))
	}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := parseXML(data); err != nil || !bytes.Contains(data, []byte("<svg")) {
			t.Errorf("%s: not an SVG: %v", f, err)
		}
		if !bytes.Contains(data, []byte("nginx h")) && !strings.HasPrefix(f, "h3-h2") {
			t.Errorf("%s: no series", f)
		}
	}
	// One sweep profile is not a sweep: no loss chart.
	if set := ChartSet(rows, map[string]float64{"lossy-0": 0}); strings.HasPrefix(set[len(set)-1].File, "time-vs-loss") {
		t.Errorf("loss chart from one point: %v", set)
	}
}

func parseXML(data []byte) error {
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		if _, err := d.Token(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

func TestSummaryTable(t *testing.T) {
	p, results := fakeRun(t)
	var b bytes.Buffer
	PrintSummary(&b, Rows(p, results))
	out := b.String()
	// nginx lte 1MB: h2 1000+20+3 = 1023 median, h3 0.8x: ratio 0.80
	if !strings.Contains(out, "lte         1MB    nginx") || !strings.Contains(out, "1023 [1018-1028] / 50.0 n=3") || !strings.Contains(out, " 0.80\n") {
		t.Errorf("table:\n%s", out)
	}
}

// A QUIC stack's own client is a series of its own: a csv column, a table column, a line in the
// charts and a group of the h3/h2 ratio chart (its h3 over curl's h2).
func TestQUICClientSeries(t *testing.T) {
	p, results := fakeSweep(t, "", "", "")
	rows := Rows(p, results)
	if len(rows) != (4+2)*3*2 { // nginx: curl h1/h2/h3 + ngtcp2 h3, go-h2: 2; 3 profiles, 2 sizes
		t.Fatalf("%d rows", len(rows))
	}
	var quic []Row
	for _, r := range rows {
		if r.Client == "ngtcp2" {
			quic = append(quic, r)
		}
	}
	if len(quic) != 3*2 || quic[0].Protocol != "h3" || quic[0].Series() != "h3 ngtcp2" || quic[0].Server != "nginx" {
		t.Fatalf("ngtcp2 rows %+v", quic)
	}
	var b bytes.Buffer
	PrintSummary(&b, rows)
	// nginx lte 1MB: ngtcp2's client 0.8 x 0.5 of curl's h2 times: 1023 -> 409.2 median
	if out := b.String(); !strings.Contains(out, "h3 ngtcp2") || !strings.Contains(out, "409 [407-411]") {
		t.Errorf("table:\n%s", out)
	}
	dir := t.TempDir()
	if _, err := WriteCharts(dir, rows, nil); err != nil {
		t.Fatal(err)
	}
	ratio, _ := os.ReadFile(filepath.Join(dir, "h3-h2-ratio-lte.svg"))
	size, _ := os.ReadFile(filepath.Join(dir, "time-vs-size-lte.svg"))
	if !bytes.Contains(ratio, []byte("nginx, h3 ngtcp2")) || !bytes.Contains(size, []byte("nginx h3 ngtcp2")) {
		t.Errorf("charts lack the ngtcp2 series:\n%s", ratio)
	}
}

func TestSummaryJSONHasNoNaN(t *testing.T) {
	p, _ := fakeRun(t)
	s := Summarize(p, 7, []Row{{Server: "nginx", Time: SpreadOf(nil), TTFBMedian: math.NaN()}}, nil)
	if s.Rows[0].MedianMs != nil || s.Rows[0].TTFBMedian != nil {
		t.Errorf("NaN in result.json: %+v", s.Rows[0])
	}
}

func TestWriteFilesExactSizes(t *testing.T) {
	dir := t.TempDir()
	sizes := []Size{oneKB, {Name: "3B", Bytes: 3}, {Name: "100KB", Bytes: 100_000}}
	must(t, WriteFiles(dir, sizes, 7))
	a, _ := os.ReadFile(filepath.Join(dir, "1KB.bin"))
	for _, s := range sizes {
		if st, err := os.Stat(filepath.Join(dir, s.File())); err != nil || st.Size() != s.Bytes {
			t.Errorf("%s: %v", s.Name, err)
		}
	}
	other := t.TempDir()
	must(t, WriteFiles(other, sizes, 7))
	b, _ := os.ReadFile(filepath.Join(other, "1KB.bin"))
	if !bytes.Equal(a, b) {
		t.Error("the same seed made other bytes")
	}
}

// A browser speaks h2 and h3: its h3/h2 ratio is of its own two medians, in the table and the
// ratio chart, when curl did not run.
func TestBrowserRatioIsItsOwn(t *testing.T) {
	row := func(proto string, ms float64) Row {
		return Row{Server: "nginx", Client: "chromium", Protocol: proto, Profile: "gigabit", Size: "10MB", Reps: 3,
			Time: Spread{Median: ms, P25: ms, P75: ms, Min: ms, Max: ms}, TTFBMedian: 5}
	}
	rows := []Row{row("h2", 200), row("h3", 500)}
	var b bytes.Buffer
	PrintSummary(&b, rows)
	if out := b.String(); !strings.Contains(out, " 2.50\n") {
		t.Errorf("table: want chromium's h3/h2 = 2.50:\n%s", out)
	}
	svg := ratioChart(Chart{File: "r.svg", Caption: "h3 / h2"}, rows, "gigabit")
	if !strings.Contains(svg, "nginx, h3 chromium: 2.5") {
		t.Errorf("ratio chart: %s", svg)
	}
}
