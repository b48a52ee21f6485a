package benchsuite

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/cellenv"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/topology"
)

// Link is what the bench needs to know of a profile: its down rate (bit/s, 0 unlimited), its
// round trip and its random loss towards the client (for the loss chart).
type Link struct {
	DownRate int64
	RTT      time.Duration
	Loss     float64 // 0..1
}

// Runner runs the bench matrix: each server x client x protocol x profile cell's repetitions,
// each in a client -- sim -- server topology of its own (compose/lab.yml), on matrix.Runner.
type Runner struct {
	cellenv.Env                 // RerunFlags: " --sizes 1KB,1MB --reps 2"
	Links       map[string]Link // by profile
	Plan        *Plan
	objects     map[string]string // SHA-256 of each size's object, by size name
}

// WWW is the run's folder of objects, shared (read-only) by every cell.
func (r *Runner) WWW() string { return filepath.Join(r.Run.Dir, "www") }

// RunMatrix writes the run's objects, then runs every cell not already in done; see
// matrix.Runner.Run.
func (r *Runner) RunMatrix(ctx context.Context, done []matrix.Result) ([]matrix.Result, error) {
	if err := WriteFiles(r.WWW(), r.Plan.Sizes, r.Seed); err != nil {
		return nil, err
	}
	var err error
	if r.objects, err = HashFiles(r.WWW(), r.Plan.Sizes); err != nil {
		return nil, err
	}
	m := r.Matrix()
	return m.Run(ctx, r.Plan.Cells(), done, func(ctx context.Context, c matrix.Cell) matrix.Result {
		s, cl, p, prof, v := r.Plan.lookup(c)
		return r.runCell(ctx, s, cl, p, prof, v)
	})
}

// runCell runs a cell's repetitions one after the other, each on its own seed in <cell>/<n>/,
// and records them all in <cell>/bench.json. A repetition that fails does not stop the others
// (their numbers still count); the cell fails with the first failure's reason.
func (r *Runner) runCell(ctx context.Context, s Server, cl Client, p Protocol, prof Profile, v Variant) (res matrix.Result) {
	start := time.Now()
	slot := Slot(s.Name, v)
	dir := filepath.Join(r.Run.Dir, slot+"_"+CellClient(cl, p), prof.Name)
	res = matrix.Result{Server: slot, Client: CellClient(cl, p), Case: prof.Name, Abbr: prof.Name, Result: matrix.Failed, Dir: dir}
	defer func() { res.Seconds = time.Since(start).Round(100 * time.Millisecond).Seconds() }()
	if ok, why := s.Serves(p); !ok {
		res.Result, res.Reason = matrix.Unsupported, why
		return res
	}
	if ok, why := v.Runs(p); !ok {
		res.Result, res.Reason = matrix.Unsupported, why
		return res
	}
	sizes := r.Plan.SizesOn(prof)
	if len(sizes) == 0 {
		res.Result, res.Reason = matrix.Unsupported, "the profile measures none of the sizes: "+prof.Why
		return res
	}
	_ = os.RemoveAll(dir) // --resume reruns a cell from scratch: curl appends to a repetition's bench.jsonl
	rec := CellRecord{Server: s.Name, CC: v.CC, GSO: v.GSO, HyStart: v.HyStart, Client: cl.Name, Protocol: p.Name, Profile: prof.Name}
	res.Rerun = fmt.Sprintf("wirelab bench --servers %s --clients %s --protocols %s --profiles %s --seed %d%s", s.Name, cl.Name, p.Name, prof.Name, r.Seed, r.RerunFlags)
	if v.CC != "" {
		res.Rerun += " --congestion " + v.CC
	}
	if v.GSO != "" {
		res.Rerun += " --gso " + v.GSO
	}
	if v.HyStart != "" {
		res.Rerun += " --hystart " + v.HyStart
	}
	for i := 1; i <= r.Plan.Repetitions && ctx.Err() == nil; i++ {
		rep := r.runRep(ctx, s, cl, p, prof, v, sizes, i, filepath.Join(dir, strconv.Itoa(i)), res.Rerun)
		if ctx.Err() != nil {
			return res // no verdict: --resume runs the cell again
		}
		rec.Reps = append(rec.Reps, rep)
		if rep.Unsupported {
			res.Result, res.Reason = matrix.Unsupported, rep.Error
			return res
		}
	}
	if err := rec.Write(filepath.Join(dir, RecordFile)); err != nil {
		res.Reason = err.Error()
		return res
	}
	res.Values, res.Details = rec.Values(sizes), rec.Details(sizes)
	res.Result, res.Reason = matrix.Succeeded, ""
	if why := rec.FirstError(); why != "" {
		res.Result, res.Reason = matrix.Failed, why
	}
	return res
}

// runRep runs one repetition's topology: sim (the profile, this repetition's seed) and server
// first, the client once the server listens on the protocol's transport; the client downloads
// every size on a fresh connection; after the cell is fenced its bench.jsonl is verified (a QUIC
// stack's client: its times read from each download's qlog) and the sim's drops towards the
// client are read. v.CC ("": default) is the server's TCP congestion
// control (a sysctl of its network namespace) and, for h3, its QUIC stack's (QUIC_CC, which an
// image that cannot switch answers with 127: unsupported); v.GSO ("": the image's default) is,
// for h3, its QUIC stack's UDP GSO (QUIC_GSO on / off, 127 likewise); v.HyStart likewise its QUIC
// CUBIC's HyStart++ (QUIC_HYSTART on / off).
func (r *Runner) runRep(ctx context.Context, s Server, cl Client, p Protocol, prof Profile, v Variant, sizes []Size, i int, dir, rerun string) (rep RepRecord) {
	rep = RepRecord{Rep: i, Seed: matrix.RepeatSeed(r.Seed, i), Dir: dir}
	link := r.Links[prof.Name]
	var urls []string
	limit := 30 * time.Second // containers starting
	for _, size := range sizes {
		urls = append(urls, "https://server4:443/"+size.File())
		limit += DownloadLimit(size.Bytes, link.DownRate, link.RTT)
	}
	cell, release, err := r.Alloc.AllocateCell(ctx, r.Run, r.Compose, r.Root, dir, map[string]string{
		"CLIENT_IMAGE": cl.Image, "SERVER_IMAGE": s.Image, "TESTCASE": "bench", "SERVER_TESTCASE": "bench",
		"REQUESTS": strings.Join(urls, " "), "CLIENT_PARAMS": clientParams(cl, p, DownloadLimit(sizes[len(sizes)-1].Bytes, link.DownRate, link.RTT)),
		"SIM_PROFILE": prof.Name, "SIM_SEED": strconv.FormatUint(rep.Seed, 10), "CERTS_DIR": r.CertsDir, "WWW_DIR": r.WWW(),
		"SERVER_TCP_NO_METRICS_SAVE": "1",  // each download starts TCP afresh, not from the last one's ssthresh
		"SERVER_TCP_CC":              v.CC, // empty: compose's pinned default (cubic)
		"SERVER_QUIC_CC":             quicOnly(p, v.CC),
		"SERVER_QUIC_GSO":            quicOnly(p, v.GSO), // empty: the image's default
		"SERVER_QUIC_HYSTART":        quicOnly(p, v.HyStart),
	}, Slot(s.Name, v), CellClient(cl, p), prof.Name, strconv.Itoa(i))
	if err != nil {
		rep.Error = err.Error()
		return rep
	}
	defer release()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		rep.Error = err.Error()
		return rep
	}
	_ = cell.WriteRerun(rerun)
	defer func() {
		if err := cell.Close(); err != nil && rep.Error == "" {
			rep.Error = err.Error()
		}
	}()
	fail := func(format string, a ...any) RepRecord {
		rep.Error = fmt.Sprintf("repetition %d (seed %d): ", i, rep.Seed) + fmt.Sprintf(format, a...)
		return rep
	}
	if err := cell.StartServer(ctx, p.Transport); err != nil {
		if err == topology.ErrServerUnsupported {
			rep.Unsupported = true
			return fail("%v: %s", err, cell.LastLogLine("server"))
		}
		return fail("%v", err)
	}
	// The algorithm the server's TCP really sends with, from its namespace: proof the sweep (or
	// the pinned default) took, whatever the host's default is.
	out, err := cell.Exec(ctx, "server", "cat", "/proc/sys/net/ipv4/tcp_congestion_control")
	if rep.ServerTCPCC, err = checkTCPCC(out, err, v.CC); err != nil {
		return fail("%v", err)
	}
	cpuBefore, cpuErr := cell.CPUTime(ctx, "server")
	err = cell.Up(ctx)
	code := -1
	if err == nil {
		code, err = cell.WaitExit(ctx, "client", limit)
	}
	if ctx.Err() != nil {
		return rep
	}
	// The server's CPU over the downloads (handshakes included), while it still runs.
	if cpuAfter, err2 := cell.CPUTime(ctx, "server"); cpuErr == nil && err2 == nil {
		rep.ServerCPUms = float64(cpuAfter-cpuBefore) / float64(time.Millisecond)
	}
	if state, _ := cell.State(context.Background(), "server"); !strings.HasPrefix(state, "running") {
		return fail("the server died during the downloads (%s): %s", state, cell.LastLogLine("server"))
	}
	if err != nil {
		return fail("%v", err)
	}
	if code == 127 {
		rep.Unsupported = true
		return fail("the client answered 127 (test case not supported)")
	}
	if err := cell.Fence(ctx); err != nil {
		return fail("%v", err)
	}
	ds, err := ReadDownloads(filepath.Join(dir, "client", "bench.jsonl"))
	if err != nil {
		return fail("%v; client exit %d: %s", err, code, cell.LastLogLine("client"))
	}
	TimesFromQlogs(ds, filepath.Join(dir, "client"))
	for k, d := range ds {
		if k < len(sizes) && Verify(d, sizes[k], p, r.objects[sizes[k].Name]) == nil {
			rep.Samples = append(rep.Samples, Sample{Size: sizes[k].Name, TTFBms: d.TimeStartTransfer * 1000, TotalMs: d.TimeTotal * 1000})
		}
	}
	if err := VerifyAll(ds, sizes, p, r.objects); err != nil {
		return fail("%v", err)
	}
	if rep.SimDrops, err = ReadSimDrops(filepath.Join(dir, "sim", "stats.json")); err != nil {
		return fail("%v", err)
	}
	return rep
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
