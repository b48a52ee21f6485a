package interop

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/wirelab/wirelab/internal/docker"
	"github.com/wirelab/wirelab/internal/run"
	"github.com/wirelab/wirelab/internal/topology"
)

// Runner runs a matrix of cells, -j at a time, each on subnets of its own.
type Runner struct {
	Run      *run.Run
	Compose  *docker.Compose
	Root     string
	Alloc    *topology.Allocator
	Journal  *Journal
	Progress io.Writer
	Trace    TraceChecker
	Seed     uint64
	Profile  string // overrides every case's profile when set
	CertsDir string
	Repeat   int // --repeat: runs of each non-measurement cell (<= 1: once, in the cell's folder)
}

type cellJob struct {
	server, client Impl
	c              *Case
}

// RunMatrix runs every client x server x case not already in done, writing each result to the
// journal as it finishes. It returns all results, done ones included. A full disk, or a result the
// journal cannot keep, stops the run: that cell and those in flight end as interrupted (--resume
// runs them again), and the error says why.
func (r *Runner) RunMatrix(ctx context.Context, clients, servers []Impl, cases []*Case, done []CellResult) ([]CellResult, error) {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	var journalErr error
	have := map[string]bool{}
	results := append([]CellResult(nil), done...)
	for _, d := range done {
		have[d.Client+"|"+d.Server+"|"+d.Case] = true
	}
	var jobs []cellJob
	for _, s := range servers {
		for _, cl := range clients {
			for _, c := range cases {
				if !have[cl.Name+"|"+s.Name+"|"+c.Name] {
					jobs = append(jobs, cellJob{s, cl, c})
				}
			}
		}
	}
	compliant := r.complianceProbes(ctx, clients, servers)
	p := newProgress(r.Progress, len(jobs), len(done))
	var mu sync.Mutex
	ticker := time.NewTicker(5 * time.Second)
	defer ticker.Stop()
	go func() {
		for now := range ticker.C {
			mu.Lock()
			p.tick(now)
			mu.Unlock()
		}
	}()
	work := make(chan cellJob)
	var wg sync.WaitGroup
	for w := 0; w < max(1, r.Run.Jobs); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				var res CellResult
				mu.Lock()
				p.started(j.server.Name + "_" + j.client.Name + "/" + j.c.Name)
				mu.Unlock()
				if why := joinReasons(compliant[j.server.Name+"/server"], compliant[j.client.Name+"/client"]); why != "" {
					res = CellResult{Server: j.server.Name, Client: j.client.Name, Case: j.c.Name, Abbr: j.c.Abbr, Result: Failed, Reason: why}
				} else {
					res = r.runCell(ctx, j.server, j.client, j.c)
				}
				if ctx.Err() != nil {
					return // an interrupted cell has no verdict; --resume runs it again
				}
				err := checkDiskRoom(r.Run.Dir) // a cell that ran out of disk has no verdict
				if err == nil {
					err = r.Journal.Add(res)
				}
				if err != nil {
					mu.Lock()
					if journalErr == nil {
						journalErr = err
					}
					mu.Unlock()
					stop()
					return
				}
				mu.Lock()
				results = append(results, res)
				p.record(res)
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		select {
		case work <- j:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(work)
	wg.Wait()
	return results, journalErr
}

// complianceProbes starts each image in each of its roles, in the real topology, with a random
// TESTCASE, which it must answer with exit 127 ("unsupported") as upstream requires before a pair
// runs. The other side is wirelab/endpoint, which answers 127 to anything. The result maps
// "name/role" to "" (compliant) or the one-line reason it is not.
func (r *Runner) complianceProbes(ctx context.Context, clients, servers []Impl) map[string]string {
	out := map[string]string{}
	probe := func(impl Impl, role string) {
		key := impl.Name + "/" + role
		if _, done := out[key]; done || ctx.Err() != nil {
			return
		}
		out[key] = r.compliance(ctx, impl, role)
		if out[key] == "" {
			fmt.Fprintf(r.Progress, "compliance: %s as %s answers an unknown test case with 127: ok\n", impl.Name, role)
		} else {
			fmt.Fprintln(r.Progress, out[key])
		}
	}
	for _, s := range servers {
		probe(s, "server")
	}
	for _, c := range clients {
		probe(c, "client")
	}
	return out
}

func (r *Runner) compliance(ctx context.Context, impl Impl, role string) string {
	tc := fmt.Sprintf("wirelab-unknown-%d", rand.Uint32())
	name := "compliance-" + unsafeName.ReplaceAllString(strings.ToLower(impl.Name), "-") + "-" + role
	dir := r.Run.Dir + "/compliance/" + impl.Name + "-" + role
	subnets, release, err := r.Alloc.Allocate(ctx, r.Run.Docker, r.Run.ID+"/"+name)
	if err != nil {
		return "compliance check: " + err.Error()
	}
	defer release()
	env := map[string]string{"CLIENT_IMAGE": "wirelab/endpoint:latest", "SERVER_IMAGE": "wirelab/endpoint:latest",
		"TESTCASE": tc, "SIM_PROFILE": "ideal", "SIM_CAPTURE": "0", "CERTS_DIR": r.CertsDir}
	env[strings.ToUpper(role)+"_IMAGE"] = impl.Image
	cell := topology.NewCellIn(r.Run, r.Compose, r.Root, name, dir, subnets, env).MoveWith(r.Alloc, r.Run.Docker, r.Run.ID+"/"+name)
	defer cell.Stop(context.Background())
	if err := cell.Up(ctx); err != nil {
		return "compliance check: " + err.Error()
	}
	code, err := r.waitExit(ctx, cell.Container(role), 30*time.Second)
	switch {
	case err != nil:
		return fmt.Sprintf("compliance check: %s as %s with TESTCASE=%s: %v", impl.Name, role, tc, err)
	case code != 127:
		return fmt.Sprintf("compliance check: %s as %s answered TESTCASE=%s with exit %d, want 127", impl.Name, role, tc, code)
	}
	return ""
}

func joinReasons(a, b string) string {
	if a != "" && b != "" {
		return a + "; " + b
	}
	return a + b
}
