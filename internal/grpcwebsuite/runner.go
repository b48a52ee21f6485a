package grpcwebsuite

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/cellenv"
	"github.com/wirelab/wirelab/internal/matrix"
)

// Runner runs the gRPC-web matrix on matrix.Runner.
type Runner struct {
	cellenv.Env // RerunFlags: " --chains-file F"
	Profile     string
	RTT         time.Duration // the profile's round trip: client time limits grow with it
	Repeat      int
	Converters  map[string]string // converter image name -> image reference
	Getenv      func(string) string
}

// Matrix is what one run covers.
type Matrix struct {
	Chains           []*Chain
	Servers, Clients []Image // interop servers and clients (roles server, client)
	Probes           []Image // conversion-case probes (role probe): client, server and quirk origin
	Conformers       []Image // connectrpc conformance runner + reference server (role conformance)
	Cases            []*Case
}

// serverSlot is the matrix's server column: the server behind a chain ("grpc-go@wirelab").
func serverSlot(server, chain string) string { return server + "@" + chain }

// Cells lists the cells: chains outer (direct first: the oracle), then cases, then the images
// the case's kind pairs (see Kinds). Edge cases run once per distinct edge, origin cases once per
// distinct origin: the other chains would repeat the same converter with the same input.
func (m Matrix) Cells() []matrix.Cell {
	var out []matrix.Cell
	add := func(ch *Chain, c *Case, server, client string) {
		out = append(out, matrix.Cell{Server: serverSlot(server, ch.Name), Client: client, Case: c.Name, Abbr: c.Abbr})
	}
	firstEdge, firstOrigin := map[string]string{}, map[string]string{}
	for _, ch := range m.Chains {
		if ch.Direct() {
			continue
		}
		if k := ch.Edge + "|" + ch.EdgeParams; firstEdge[k] == "" {
			firstEdge[k] = ch.Name
		}
		if k := ch.Origin + "|" + ch.OriginParams + "|" + ch.OriginImageEnv; firstOrigin[k] == "" {
			firstOrigin[k] = ch.Name
		}
	}
	for _, ch := range m.Chains {
		for _, c := range m.Cases {
			switch c.Kind {
			case KindInterop:
				for _, s := range m.Servers {
					for _, cl := range m.Clients {
						add(ch, c, s.Name, cl.Name)
					}
				}
			case KindBench:
				for _, s := range m.Servers {
					for _, p := range m.Probes {
						add(ch, c, s.Name, p.Name)
					}
				}
			case KindConformance:
				for _, x := range m.Conformers {
					add(ch, c, x.Name, x.Name)
				}
			default: // the probe kinds
				if (c.Kind == KindEdge && firstEdge[ch.Edge+"|"+ch.EdgeParams] != ch.Name) ||
					(c.Kind == KindOrigin && firstOrigin[ch.Origin+"|"+ch.OriginParams+"|"+ch.OriginImageEnv] != ch.Name) {
					continue
				}
				for _, p := range m.Probes {
					add(ch, c, p.Name, p.Name)
				}
			}
		}
	}
	return out
}

// PlanCells is the matrix as the plan sees it.
func (r *Runner) PlanCells(m Matrix) []matrix.PlanCell {
	var out []matrix.PlanCell
	chains := map[string]*Chain{}
	for _, ch := range m.Chains {
		chains[ch.Name] = ch
	}
	cases := map[string]*Case{}
	for _, c := range m.Cases {
		cases[c.Name] = c
	}
	for _, c := range m.Cells() {
		server, chain, _ := strings.Cut(c.Server, "@")
		ok, _ := r.supports(chains[chain])
		// Group: a chain's cell and its direct oracle share a shard (--shard).
		out = append(out, matrix.PlanCell{Cell: c, Skip: !ok, TypicalSeconds: cases[c.Case].typical(),
			Group: server + "|" + c.Client + "|" + c.Case})
	}
	return out
}

// Columns are the cases as the terminal grid shows them.
func Columns(cases []*Case) []matrix.Column {
	out := make([]matrix.Column, len(cases))
	for i, c := range cases {
		out[i] = matrix.Column{Name: c.Name, Abbr: c.Abbr}
	}
	return out
}

// RunMatrix runs every cell not already in done, then compares each converter chain's outcome
// with the direct chain's (the oracle).
func (r *Runner) RunMatrix(ctx context.Context, m Matrix, done []matrix.Result) ([]matrix.Result, error) {
	chains, images, cases := map[string]*Chain{}, map[string]Image{}, map[string]*Case{}
	for _, x := range m.Chains {
		chains[x.Name] = x
	}
	for _, x := range append(append(append(append([]Image{}, m.Servers...), m.Clients...), m.Probes...), m.Conformers...) {
		images[x.Name] = x
	}
	for _, x := range m.Cases {
		cases[x.Name] = x
	}
	mr := r.Matrix()
	results, err := mr.Run(ctx, m.Cells(), done, func(ctx context.Context, c matrix.Cell) matrix.Result {
		server, chain, _ := strings.Cut(c.Server, "@")
		return r.runCell(ctx, chains[chain], images[server], images[c.Client], cases[c.Case], c)
	})
	if err != nil {
		return results, err
	}
	return CompareWithDirect(results), nil
}

func (r *Runner) runCell(ctx context.Context, ch *Chain, s, cl Image, c *Case, mc matrix.Cell) matrix.Result {
	start := time.Now()
	dir := filepath.Join(r.Run.Dir, mc.Server+"_"+mc.Client, mc.Case) // every suite's layout: <server>_<client>/<case>/
	res := matrix.Result{Server: mc.Server, Client: mc.Client, Case: mc.Case, Abbr: mc.Abbr, Result: matrix.Failed, Dir: dir}
	if ok, why := r.supports(ch); !ok {
		res.Result, res.Reason = matrix.Unsupported, why
		return res
	}
	res = matrix.Repeat(ctx, r.Repeat, r.Seed, dir, res, func(ctx context.Context, seed uint64, dir string) matrix.Result {
		rr := *r
		rr.Seed = seed
		return rr.runOnce(ctx, ch, s, cl, c, dir)
	})
	res.Seconds = time.Since(start).Round(100 * time.Millisecond).Seconds()
	return res
}

// supports says whether a chain can run here: its converter images exist in the manifests, and
// an origin image from the environment (Envoy) is set.
func (r *Runner) supports(ch *Chain) (bool, string) {
	if ch.Direct() {
		return true, ""
	}
	if _, ok := r.Converters[ch.Edge]; !ok {
		return false, fmt.Sprintf("edge %q is no converter image (manifest role grpcweb: converter)", ch.Edge)
	}
	if ch.OriginImageEnv != "" {
		if r.Getenv == nil || r.Getenv(ch.OriginImageEnv) == "" {
			return false, fmt.Sprintf("%s is not set (an origin image this machine cannot build)", ch.OriginImageEnv)
		}
		return true, ""
	}
	if _, ok := r.Converters[ch.Origin]; !ok {
		return false, fmt.Sprintf("origin %q is no converter image (manifest role grpcweb: converter)", ch.Origin)
	}
	return true, ""
}

// limit is a case's client time limit: its ideal-link limit plus a hundred round trips.
func (r *Runner) limit(c *Case) time.Duration { return c.limit + 100*r.RTT }
