package benchsuite

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// seqQlog writes a JSON-SEQ qlog (quic-go's and ngtcp2's format) of the events into a new folder.
func seqQlog(t *testing.T, events ...string) string {
	t.Helper()
	dir := t.TempDir()
	data := "\x1e{\"qlog_version\":\"0.3\",\"qlog_format\":\"JSON-SEQ\"}\n"
	for _, e := range events {
		data += "\x1e" + e + "\n"
	}
	must(t, os.WriteFile(filepath.Join(dir, "c0ffee.sqlog"), []byte(data), 0o644))
	return dir
}

const (
	started  = `{"time":2,"name":"transport:parameters_set","data":{}}`
	ackOnly  = `{"time":5,"name":"transport:packet_received","data":{"frames":[{"frame_type":"ack"}]}}`
	first    = `{"time":12,"name":"transport:packet_received","data":{"frames":[{"frame_type":"stream","stream_id":0,"offset":0,"length":100}]}}`
	other    = `{"time":13,"name":"transport:packet_received","data":{"frames":[{"frame_type":"stream","stream_id":3,"offset":0,"length":900,"fin":true}]}}`
	tailFin  = `{"time":22,"name":"transport:packet_received","data":{"frames":[{"frame_type":"stream","stream_id":0,"offset":200,"length":100,"fin":true}]}}`
	gapFill  = `{"time":32,"name":"transport:packet_received","data":{"frames":[{"frame_type":"stream","stream_id":0,"offset":100,"length":100}]}}`
	afterAll = `{"time":40,"name":"transport:packet_received","data":{"frames":[{"frame_type":"stream","stream_id":0,"offset":0,"length":100}]}}`
)

// Times run from the trace's first event: first response bytes at 12-2 ms; the stream completes
// when the retransmitted middle fills the gap before the FIN (32-2 ms), not at the FIN itself,
// and a duplicate after that changes nothing. Other streams (the control stream) do not count.
func TestQlogTimesJSONSeq(t *testing.T) {
	ttfb, total, err := QlogTimes(seqQlog(t, started, ackOnly, other, first, tailFin, gapFill, afterAll))
	if err != nil || math.Abs(ttfb-0.010) > 1e-9 || math.Abs(total-0.030) > 1e-9 {
		t.Fatalf("ttfb %v total %v err %v", ttfb, total, err)
	}
}

// aioquic writes one JSON document; its times are absolute milliseconds.
func TestQlogTimesDocument(t *testing.T) {
	dir := t.TempDir()
	doc := `{"qlog_format":"JSON","qlog_version":"0.3","traces":[{"common_fields":{},"events":[` +
		`{"data":{},"name":"transport:parameters_set","time":1700000000000.5},` +
		`{"data":{"frames":[{"fin":true,"frame_type":"stream","length":5,"offset":0,"stream_id":0}]},"name":"transport:packet_received","time":1700000000050.5}` +
		`]}]}`
	must(t, os.WriteFile(filepath.Join(dir, "c0ffee.qlog"), []byte(doc), 0o644))
	ttfb, total, err := QlogTimes(dir)
	if err != nil || math.Abs(ttfb-0.050) > 1e-9 || ttfb != total {
		t.Fatalf("ttfb %v total %v err %v", ttfb, total, err)
	}
}

// Evidence that does not show a complete response is an error naming the file and what is
// missing, never a time.
func TestQlogTimesFailsOnBadEvidence(t *testing.T) {
	two := seqQlog(t, started, first, tailFin, gapFill)
	must(t, os.WriteFile(filepath.Join(two, "second.sqlog"), nil, 0o644))
	cut := seqQlog(t, started, first)
	must(t, os.WriteFile(filepath.Join(cut, "c0ffee.sqlog"), []byte("\x1e{\"time\":2,\"name\":\"transport:packet_re"), 0o644))
	for name, c := range map[string]struct {
		dir, want string
	}{
		"gap":          {seqQlog(t, started, first, tailFin), "stream 0 incomplete: 100 of 300 bytes received before its FIN"},
		"no fin":       {seqQlog(t, started, first, gapFill), "stream 0 never ended"},
		"no response":  {seqQlog(t, started, ackOnly, other), "no response bytes received"},
		"no qlog":      {t.TempDir(), "0 qlog files"},
		"two qlogs":    {two, "2 qlog files"},
		"cut record":   {cut, "c0ffee.sqlog: record 1: not a qlog event"},
		"empty header": {seqQlog(t), "no events"},
	} {
		if _, _, err := QlogTimes(c.dir); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}

// TimesFromQlogs fills only the downloads a qlog times, and keeps the reason where it cannot.
func TestTimesFromQlogs(t *testing.T) {
	client := t.TempDir()
	good := seqQlog(t, started, first, tailFin, gapFill)
	must(t, os.MkdirAll(filepath.Join(client, "qlog"), 0o755))
	must(t, os.Rename(good, filepath.Join(client, "qlog", "bench-1")))
	ds := []Download{{Qlog: "qlog/bench-1"}, {Qlog: "qlog/bench-2"}, {TimeTotal: 0.5}, {Qlog: "../../etc", ExitCode: 0}}
	TimesFromQlogs(ds, client)
	if math.Abs(ds[0].TimeTotal-0.030) > 1e-9 || ds[0].TimesError != "" {
		t.Errorf("timed download: %+v", ds[0])
	}
	if !strings.Contains(ds[1].TimesError, "0 qlog files") || ds[2].TimeTotal != 0.5 || ds[2].TimesError != "" {
		t.Errorf("%+v %+v", ds[1], ds[2])
	}
	if !strings.Contains(ds[3].TimesError, filepath.Join(client, "etc")) {
		t.Errorf("a qlog path leaving the client folder: %+v", ds[3])
	}
}

// Real qlogs of one 1 KB download each, from make bench on lte (run qc0: nginx, seed 7), read
// to the times that run recorded; ngtcp2 writes whole milliseconds. Cut in half, each fails.
func TestQlogTimesRealStacks(t *testing.T) {
	for stack, want := range map[string][2]float64{
		"quic-go": {113.240542, 113.240542},
		"ngtcp2":  {110, 111},
		"aioquic": {128.27197265625, 128.27197265625},
	} {
		dir := filepath.Join("testdata", "qlog", stack+"-1KB")
		ttfb, total, err := QlogTimes(dir)
		if err != nil || math.Abs(ttfb*1000-want[0]) > 1e-6 || math.Abs(total*1000-want[1]) > 1e-6 {
			t.Errorf("%s: ttfb %v total %v err %v, want %v ms", stack, ttfb, total, err, want)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		data, err := os.ReadFile(files[0])
		must(t, err)
		cut := t.TempDir()
		must(t, os.WriteFile(filepath.Join(cut, filepath.Base(files[0])), data[:len(data)/2], 0o644))
		if _, _, err := QlogTimes(cut); err == nil {
			t.Errorf("%s: half a qlog gave times", stack)
		}
	}
}
