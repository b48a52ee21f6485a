package h2suite

import (
	"context"
	"path/filepath"
	"time"

	"github.com/wirelab/wirelab/internal/cellenv"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/tshark"
)

// Runner runs the h2 matrix: each server x section cell in a client -- sim -- server topology
// of its own (compose/lab.yml), on matrix.Runner.
type Runner struct {
	cellenv.Env                          // RerunFlags: " --h2spec http2/6.9 --upload-size N"
	Profile     string                   // the sim profile of every section without its own
	RTTs        map[string]time.Duration // each profile's round-trip time: client time limits grow with it
	Repeat      int
	Tshark      *tshark.Tool // editcap for the decrypted pcapng (tshark image)
}

// Cells lists the matrix's cells: servers outer, sections inner; a section's client is the
// cell's client (h2spec, h2check).
func Cells(servers []Server, sections []*Section) []matrix.Cell {
	var out []matrix.Cell
	for _, s := range servers {
		for _, sec := range sections {
			out = append(out, matrix.Cell{Server: s.Name, Client: sec.Client, Case: sec.Name, Abbr: sec.Abbr})
		}
	}
	return out
}

// PlanCells is the matrix as the plan sees it: a server that speaks no HTTP/1.1 skips the
// HTTP/1.1 uploads.
func PlanCells(servers []Server, sections []*Section) []matrix.PlanCell {
	byServer, bySection := map[string]Server{}, map[string]*Section{}
	for _, s := range servers {
		byServer[s.Name] = s
	}
	for _, s := range sections {
		bySection[s.Name] = s
	}
	var out []matrix.PlanCell
	for _, c := range Cells(servers, sections) {
		ok, _ := byServer[c.Server].supports(bySection[c.Case])
		out = append(out, matrix.PlanCell{Cell: c, Skip: !ok, TypicalSeconds: 10})
	}
	return out
}

// Columns are the sections as the terminal table shows them.
func Columns(sections []*Section) []matrix.Column {
	out := make([]matrix.Column, len(sections))
	for i, s := range sections {
		out[i] = matrix.Column{Name: s.Name, Abbr: s.Abbr}
	}
	return out
}

// RunMatrix runs every server x section cell not already in done; see matrix.Runner.Run.
func (r *Runner) RunMatrix(ctx context.Context, servers []Server, sections []*Section, done []matrix.Result) ([]matrix.Result, error) {
	byServer, bySection := map[string]Server{}, map[string]*Section{}
	for _, s := range servers {
		byServer[s.Name] = s
	}
	for _, s := range sections {
		bySection[s.Name] = s
	}
	m := r.Matrix()
	return m.Run(ctx, Cells(servers, sections), done, func(ctx context.Context, c matrix.Cell) matrix.Result {
		return r.runCell(ctx, byServer[c.Server], bySection[c.Case])
	})
}

func (r *Runner) runCell(ctx context.Context, s Server, sec *Section) matrix.Result {
	start := time.Now()
	dir := filepath.Join(r.Run.Dir, s.Name+"_"+sec.Client, sec.Name) // every suite's layout: <server>_<client>/<case>/
	res := matrix.Result{Server: s.Name, Client: sec.Client, Case: sec.Name, Abbr: sec.Abbr, Result: matrix.Failed, Dir: dir}
	if ok, why := s.supports(sec); !ok {
		res.Result, res.Reason = matrix.Unsupported, why
		return res
	}
	res = matrix.Repeat(ctx, r.Repeat, r.Seed, dir, res, func(ctx context.Context, seed uint64, dir string) matrix.Result {
		rr := *r
		rr.Seed = seed
		return rr.runOnce(ctx, s, sec, dir)
	})
	res.Seconds = time.Since(start).Round(100 * time.Millisecond).Seconds()
	return res
}

// profile is the sim profile a section's cells run on.
func (r *Runner) profile(sec *Section) string {
	if sec.Profile != "" {
		return sec.Profile
	}
	return r.Profile
}

// limit is a section's client time limit on its profile: the ideal-link limit plus a hundred
// round trips per minute of it (h2spec's ~150 cases each wait for answers).
func (r *Runner) limit(sec *Section) time.Duration {
	if sec.Client == ClientH2check {
		return time.Duration(float64(sec.Limit) * r.h2checkScale(sec))
	}
	return sec.Limit + time.Duration(sec.Limit.Minutes()*100)*r.RTTs[r.profile(sec)]
}

// h2checkScale stretches wirelab's own cases' time limits (h2check -timeout) for the profile's
// RTT: the slowest case (tiny WINDOW_UPDATEs) takes about a thousand round trips, so each 20 ms
// of RTT adds one limit's worth.
func (r *Runner) h2checkScale(sec *Section) float64 {
	return 1 + 50*r.RTTs[r.profile(sec)].Seconds()
}

// h2specTimeout is h2spec's per-case -o (seconds): its default 2 s, or four round trips and a
// second when the profile's RTT makes that longer.
func (r *Runner) h2specTimeout(sec *Section) int {
	return max(2, int((4*r.RTTs[r.profile(sec)]+time.Second).Seconds()+0.999))
}
