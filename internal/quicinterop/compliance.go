package quicinterop

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/suite"
	"github.com/wirelab/wirelab/internal/topology"
)

// complianceProbes starts each image in each of its roles, in the real topology, with a random
// TESTCASE, which it must answer with exit 127 ("unsupported") as upstream requires before a pair
// runs. The other side is wirelab/endpoint, which answers 127 to anything. The result maps
// "name/role" to "" (compliant) or the one-line reason it is not.
func complianceProbes(ctx context.Context, r *suite.Run, clients, servers []Impl) map[string]string {
	out := map[string]string{}
	probe := func(impl Impl, role string) {
		key := impl.Name + "/" + role
		if _, done := out[key]; done || ctx.Err() != nil {
			return
		}
		out[key] = compliance(ctx, r, impl, role)
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

func compliance(ctx context.Context, r *suite.Run, impl Impl, role string) string {
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
