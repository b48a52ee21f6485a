package benchsuite

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/jsonfile"
	"github.com/wirelab/wirelab/internal/lifecycle"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/suite"
	"github.com/wirelab/wirelab/internal/topology"
)

// Files a repetition keeps beside its topology's output.
const (
	meterFile = "server-meter.json" // the server's TCP algorithm and CPU over the downloads
	repFile   = "repetition.json"   // the repetition's record (RepRecord), what bench.json is made of
)

// meter is what a repetition reads off the running server: the TCP algorithm its namespace
// sends with, and its CPU time around the client's downloads.
type meter struct {
	TCPCC       string  `json:"tcp_congestion_control"`
	ServerCPUms float64 `json:"server_cpu_ms,omitempty"` // 0: unreadable
}

// Layout implements suite.Matrix: sim (the profile, this repetition's seed) and server first,
// the client once the server listens on the protocol's transport; the client downloads every
// size on a fresh connection. v.CC ("": default) is the server's TCP congestion control (a sysctl
// of its network namespace, checked before the downloads) and, for h3, its QUIC stack's
// (QUIC_CC, which an image that cannot switch answers with 127: unsupported); v.GSO and
// v.HyStart likewise its QUIC stack's UDP GSO and CUBIC's HyStart++.
func (m *Matrix) Layout(ctx context.Context, r *suite.Run, c matrix.Cell, seed uint64, dir string) (lifecycle.Layout, error) {
	s, cl, p, prof, v := m.plan.lookup(c)
	sizes := m.plan.SizesOn(prof)
	link := m.links[prof.Name]
	l := lifecycle.Layout{Name: []string{s.Name, v.Name(), cl.Name, p.Name, prof.Name},
		Limit: 30 * time.Second, // containers starting
		Rerun: fmt.Sprintf("wirelab bench --servers %s --clients %s --protocols %s --profiles %s --seed %d%s", s.Name, cl.Name, p.Name, prof.Name, r.Seed, m.rerunFlags)}
	for flag, value := range map[string]string{"--congestion": v.CC, "--gso": v.GSO, "--hystart": v.HyStart} {
		if value != "" {
			l.Rerun += " " + flag + " " + value
		}
	}
	var urls []string
	for _, size := range sizes {
		urls = append(urls, "https://server4:443/"+size.File())
		l.Limit += DownloadLimit(size.Bytes, link.DownRate, link.RTT)
	}
	l.Env = map[string]string{
		"CLIENT_IMAGE": cl.Image, "SERVER_IMAGE": s.Image, "TESTCASE": "bench", "SERVER_TESTCASE": "bench",
		"REQUESTS": strings.Join(urls, " "), "CLIENT_PARAMS": clientParams(cl, p, DownloadLimit(sizes[len(sizes)-1].Bytes, link.DownRate, link.RTT)),
		"BENCH_PROTOCOL": p.Name, // for a client of several protocols but curl's switches (a browser)
		"SIM_PROFILE":    prof.Name, "SIM_SEED": strconv.FormatUint(seed, 10), "CERTS_DIR": r.CertsDir, "WWW_DIR": m.www,
		"SERVER_TCP_NO_METRICS_SAVE": "1",  // each download starts TCP afresh, not from the last one's ssthresh
		"SERVER_TCP_CC":              v.CC, // empty: compose's pinned default (cubic)
		"SERVER_QUIC_CC":             quicOnly(p, v.CC),
		"SERVER_QUIC_GSO":            quicOnly(p, v.GSO), // empty: the image's default
		"SERVER_QUIC_HYSTART":        quicOnly(p, v.HyStart),
	}
	l.Peers = []lifecycle.Peer{{Service: "server", Listen: p.Transport, Port: 443}}
	var mt meter
	var cpuBefore time.Duration
	var cpuErr error
	l.Started = func(ctx context.Context, cell *topology.Cell) error {
		// The algorithm the server's TCP really sends with, from its namespace: proof the sweep (or
		// the pinned default) took, whatever the host's default is.
		out, err := cell.Exec(ctx, "server", "cat", "/proc/sys/net/ipv4/tcp_congestion_control")
		if mt.TCPCC, err = checkTCPCC(out, err, v.CC); err != nil {
			return err
		}
		cpuBefore, cpuErr = cell.CPUTime(ctx, "server")
		return nil
	}
	l.Finished = func(ctx context.Context, cell *topology.Cell) error {
		// The server's CPU over the downloads (handshakes included), while it still runs.
		if cpuAfter, err := cell.CPUTime(ctx, "server"); cpuErr == nil && err == nil {
			mt.ServerCPUms = float64(cpuAfter-cpuBefore) / float64(time.Millisecond)
		}
		return jsonfile.Write(filepath.Join(dir, meterFile), mt)
	}
	return l, nil
}

// Verdict implements suite.Matrix: the fenced repetition's bench.jsonl verified (a QUIC stack's
// client: its times read from each download's qlog), the sim's drops towards the client, the
// server's meter; the repetition's record is written for bench.json.
func (m *Matrix) Verdict(_ context.Context, _ *suite.Run, c matrix.Cell, ev lifecycle.Evidence) matrix.Result {
	_, _, p, prof, _ := m.plan.lookup(c)
	sizes := m.plan.SizesOn(prof)
	rep := RepRecord{Dir: ev.Dir}
	fail := func(format string, a ...any) matrix.Result {
		rep.Error = fmt.Sprintf(format, a...)
		_ = jsonfile.Write(filepath.Join(ev.Dir, repFile), rep)
		return matrix.Result{Result: matrix.Failed, Reason: rep.Error}
	}
	var mt meter
	if err := jsonfile.Read(filepath.Join(ev.Dir, meterFile), &mt); err != nil {
		return fail("%v", err)
	}
	rep.ServerTCPCC, rep.ServerCPUms = mt.TCPCC, mt.ServerCPUms
	ds, err := ReadDownloads(filepath.Join(ev.Dir, "client", "bench.jsonl"))
	if err != nil {
		return fail("%v; client exit %d: %s", err, ev.ClientExit, ev.ClientWords)
	}
	TimesFromQlogs(ds, filepath.Join(ev.Dir, "client"))
	TimesFromBrowserLogs(ds, filepath.Join(ev.Dir, "client"))
	for k, d := range ds {
		if k < len(sizes) && Verify(d, sizes[k], p, m.objects[sizes[k].Name]) == nil {
			rep.Samples = append(rep.Samples, Sample{Size: sizes[k].Name, TTFBms: d.TimeStartTransfer * 1000, TotalMs: d.TimeTotal * 1000, ClientCPUms: d.ClientCPUms})
		}
	}
	if err := VerifyAll(ds, sizes, p, m.objects); err != nil {
		return fail("%v", err)
	}
	if rep.SimDrops, err = ReadSimDrops(filepath.Join(ev.Dir, "sim", "stats.json")); err != nil {
		return fail("%v", err)
	}
	if err := jsonfile.Write(filepath.Join(ev.Dir, repFile), rep); err != nil {
		return fail("%v", err)
	}
	return matrix.Result{Result: matrix.Succeeded}
}

// Combine implements suite.Combiner: every repetition's record (a repetition that failed before
// its verdict: its reason) in the cell's bench.json; the cell's values are its download times,
// its details the medians; the first failed repetition's reason decides.
func (m *Matrix) Combine(_ *suite.Run, res matrix.Result) matrix.Result {
	s, cl, p, prof, v := m.plan.lookup(res.Cell)
	rec := CellRecord{Server: s.Name, CC: v.CC, GSO: v.GSO, HyStart: v.HyStart, Client: cl.Name, Protocol: p.Name, Profile: prof.Name}
	if res.Repeat == nil {
		return res
	}
	for i, x := range res.Repeat.Of {
		var rep RepRecord
		if jsonfile.Read(filepath.Join(x.Dir, repFile), &rep) != nil {
			rep = RepRecord{Dir: x.Dir, Error: x.Reason}
		}
		rep.Rep, rep.Seed = i+1, x.Seed
		if x.Result == matrix.Unsupported || x.Result == matrix.UnsupportedAtRunTime {
			rep.Unsupported = true
		}
		if x.Result != matrix.Succeeded && rep.Error != "" {
			rep.Error = fmt.Sprintf("repetition %d (seed %d): %s", i+1, x.Seed, rep.Error)
		}
		rec.Reps = append(rec.Reps, rep)
	}
	if res.Result == matrix.Unsupported || res.Result == matrix.UnsupportedAtRunTime {
		return res
	}
	if err := rec.Write(filepath.Join(res.Dir, RecordFile)); err != nil {
		res.Result, res.Reason = matrix.Failed, err.Error()
		return res
	}
	sizes := m.plan.SizesOn(prof)
	res.Values, res.Details = rec.Values(sizes), rec.Details(sizes)
	if why := rec.FirstError(); why != "" {
		res.Result, res.Reason = matrix.Failed, why
	}
	return res
}

// checkTCPCC holds what the server's namespace reports (out, read with err) to the algorithm
// asked for (cc; "": DefaultTCPCC) and returns the algorithm it runs.
func checkTCPCC(out []byte, err error, cc string) (string, error) {
	want := cmp.Or(cc, DefaultTCPCC)
	got := strings.TrimSpace(string(out))
	if err != nil || got != want {
		return got, fmt.Errorf("the server's TCP congestion control is %q (%v), want %q", got, err, want)
	}
	return got, nil
}

// DefaultTCPCC is the TCP congestion control compose/lab.yml pins when none is asked for.
const DefaultTCPCC = "cubic"

// clientParams are the client's CLIENT_PARAMS: curl's protocol switch and time limit; a QUIC
// stack's own client speaks h3 without a switch (a stalled download ends at the repetition's
// limit).
func clientParams(cl Client, p Protocol, limit time.Duration) string {
	if cl.Name != ReferenceClient {
		return ""
	}
	return fmt.Sprintf("%s --max-time %.0f", p.Curl, limit.Seconds())
}

// quicOnly is what a QUIC stack's switch (QUIC_CC, QUIC_GSO, QUIC_HYSTART) gets: the swept value for h3 cells,
// else none.
func quicOnly(p Protocol, value string) string {
	if p.Transport == "udp" {
		return value
	}
	return ""
}
