package quicinterop

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/cellenv"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/topology"
)

// Runner runs a matrix of cells, -j at a time, each on subnets of its own.
type Runner struct {
	cellenv.Env
	Trace   TraceChecker
	Profile string // overrides every case's profile when set
	Repeat  int    // --repeat: runs of each non-measurement cell (<= 1: once, in the cell's folder)
}

// Cells lists the matrix's cells in run order: servers outer, then clients, then cases.
func Cells(clients, servers []Impl, cases []*Case) []matrix.Cell {
	var out []matrix.Cell
	for _, s := range servers {
		for _, cl := range clients {
			for _, c := range cases {
				out = append(out, matrix.Cell{Server: s.Name, Client: cl.Name, Case: c.Name, Abbr: c.Abbr})
			}
		}
	}
	return out
}

// RunMatrix runs every client x server x case not already in done (matrix.Runner: journal,
// progress, -j), after the compliance probes of the images involved. It returns all results,
// done ones included; an error means the journal could not keep a result and the run stopped.
func (r *Runner) RunMatrix(ctx context.Context, clients, servers []Impl, cases []*Case, done []matrix.Result) ([]matrix.Result, error) {
	impls, byCase := map[string]Impl{}, map[string]*Case{}
	for _, i := range append(append([]Impl(nil), clients...), servers...) {
		impls[i.Name] = i
	}
	for _, c := range cases {
		byCase[c.Name] = c
	}
	cells := Cells(clients, servers, cases)
	pc, ps := r.toRun(cells, done, impls)
	compliant := r.complianceProbes(ctx, pc, ps)
	m := r.Matrix()
	m.Details = "goodput "
	return m.Run(ctx, cells, done, func(ctx context.Context, cell matrix.Cell) matrix.Result {
		if why := joinReasons(compliant[cell.Server+"/server"], compliant[cell.Client+"/client"]); why != "" {
			return matrix.Result{Server: cell.Server, Client: cell.Client, Case: cell.Case, Abbr: cell.Abbr, Result: matrix.Failed, Reason: why}
		}
		return r.runCell(ctx, impls[cell.Server], impls[cell.Client], byCase[cell.Case])
	})
}

// toRun is the clients and servers of the cells left to run (not done, in this shard): only
// they need the compliance probe (a resumed or merged run with nothing left probes nothing).
func (r *Runner) toRun(cells []matrix.Cell, done []matrix.Result, impls map[string]Impl) (clients, servers []Impl) {
	have := map[string]bool{}
	for _, d := range done {
		have[d.Key()] = true
	}
	seen := map[string]bool{}
	for _, c := range cells {
		k := matrix.Result{Server: c.Server, Client: c.Client, Case: c.Case}.Key()
		if have[k] || (r.Only != nil && !r.Only[k]) {
			continue
		}
		if !seen[c.Client+"/client"] {
			seen[c.Client+"/client"], clients = true, append(clients, impls[c.Client])
		}
		if !seen[c.Server+"/server"] {
			seen[c.Server+"/server"], servers = true, append(servers, impls[c.Server])
		}
	}
	return clients, servers
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
	name := "compliance-" + topology.ProjectName(impl.Name) + "-" + role
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
	code, err := cell.WaitExit(ctx, role, 30*time.Second)
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
