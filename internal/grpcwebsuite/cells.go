package grpcwebsuite

import (
	"fmt"
	"time"

	"github.com/wirelab/wirelab/internal/matrix"
)

// Cells lists the cells: chains outer (direct first: the oracle), then cases, then the images
// the case's kind pairs (see Kinds). Edge cases run once per distinct edge, origin cases once per
// distinct origin: the other chains would repeat the same converter with the same input.
func (m *Matrix) Cells() []matrix.PlanCell {
	var out []matrix.PlanCell
	add := func(ch *Chain, c *Case, server, client string) {
		ok, why := m.supports(ch)
		// Group: a chain's cell and its direct oracle share a shard (--shard).
		out = append(out, matrix.PlanCell{Cell: matrix.Cell{Server: server, Client: client, Case: c.Name, Abbr: c.Abbr,
			Axes: map[string]string{AxisChain: ch.Name}}, Skip: !ok, Why: why, TypicalSeconds: c.typical(),
			Group: server + "|" + client + "|" + c.Name})
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

// supports says whether a chain can run here: its converter images exist in the manifests, and
// an origin image from the environment (Envoy) is set.
func (m *Matrix) supports(ch *Chain) (bool, string) {
	if ch.Direct() {
		return true, ""
	}
	if _, ok := m.converters[ch.Edge]; !ok {
		return false, fmt.Sprintf("edge %q is no converter image (manifest role grpcweb: converter)", ch.Edge)
	}
	if ch.OriginImageEnv != "" {
		if m.getenv == nil || m.getenv(ch.OriginImageEnv) == "" {
			return false, fmt.Sprintf("%s is not set (an origin image this machine cannot build)", ch.OriginImageEnv)
		}
		return true, ""
	}
	if _, ok := m.converters[ch.Origin]; !ok {
		return false, fmt.Sprintf("origin %q is no converter image (manifest role grpcweb: converter)", ch.Origin)
	}
	return true, ""
}

// limit is a case's client time limit: its ideal-link limit plus a hundred round trips.
func (m *Matrix) limit(c *Case) time.Duration { return c.limit + 100*m.rtt }
