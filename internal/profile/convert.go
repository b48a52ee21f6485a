package profile

import (
	"fmt"
	"time"

	"github.com/wirelab/wirelab/internal/netem"
)

// dirKeys are the YAML names of the directions, indexed by netem.Direction.
var dirKeys = [2]string{netem.ToServer: "to_server", netem.ToClient: "to_client"}

// converter turns merged raw settings into netem values. Merging forgets
// which section a value came from, so errors name the effective field:
// profiles.<profile>.<direction>.<key>.
type converter struct {
	file, prefix string // prefix: "profiles.<name>"
}

func (c converter) errf(field, format string, args ...any) *Error {
	return &Error{File: c.file, Field: c.prefix + "." + field, Msg: fmt.Sprintf(format, args...)}
}

func (c converter) links(raw [2]*rawLink) (netem.DirParams, error) {
	var out netem.DirParams
	for _, dir := range netem.Directions {
		p, err := c.link(raw[dir], dir)
		if err != nil {
			return out, err
		}
		if dir == netem.ToClient {
			out.ToClient = p
		} else {
			out.ToServer = p
		}
	}
	return out, nil
}

func (c converter) link(l *rawLink, dir netem.Direction) (netem.Params, error) {
	var p netem.Params
	if l == nil {
		return p, nil
	}
	at := func(key string) string { return dirKeys[dir] + "." + key }
	p.Delay = time.Duration(or(l.Delay, 0))
	p.Jitter = time.Duration(or(l.Jitter, 0))
	p.JitterDist = netem.Distribution(or(l.JitterDistribution, 0))
	p.JitterReorder = bool(or(l.JitterReorder, false))
	p.Loss = float64(or(l.Loss, 0))
	p.LossMaxRun = int(or(l.LossMaxRun, 0))
	p.Droplist = []int(or(l.Droplist, nil))
	p.Corrupt = float64(or(l.Corrupt, 0))
	p.CorruptWindow = int(or(l.CorruptWindow, 0))
	p.CorruptDeliver = bool(or(l.CorruptDeliver, false))
	p.Duplicate = float64(or(l.Duplicate, 0))
	p.Rate = int64(or(l.Rate, 0))
	p.Queue = netem.Depth(or(l.Queue, queueSize{}))
	p.CEThreshold = netem.Depth(or(l.CEThreshold, threshold{}))

	if l.Burst != nil {
		if l.GilbertElliott != nil {
			return p, c.errf(at("burst"), "burst and gilbert_elliott are mutually exclusive")
		}
		// loss + burst is the simple form of a Gilbert model (see GEFromBurst).
		ge, err := netem.GEFromBurst(p.Loss, float64(*l.Burst))
		if err != nil {
			return p, c.errf(at("burst"), "%v", err)
		}
		p.GE, p.Loss = &ge, 0
	}
	if g := l.GilbertElliott; g != nil {
		if g.P == nil || g.R == nil {
			return p, c.errf(at("gilbert_elliott"), "p and r are required (h defaults to 0%%, k to 100%%)")
		}
		p.GE = &netem.GilbertElliott{P: float64(*g.P), R: float64(*g.R), H: float64(or(g.H, 0)), K: float64(or(g.K, 1))}
	}
	if r := l.Reorder; r != nil {
		if r.Probability == nil {
			return p, c.errf(at("reorder.probability"), "required")
		}
		p.Reorder = netem.Reorder{Probability: float64(*r.Probability), Gap: int(or(r.Gap, 1))}
	}
	if b := l.Blackhole; b != nil {
		switch {
		case b.On == nil:
			return p, c.errf(at("blackhole.on"), "required")
		case b.Off == nil || *b.Off == 0:
			return p, c.errf(at("blackhole.off"), "required and must be positive")
		case b.Repeat != nil && *b.Repeat < 1:
			return p, c.errf(at("blackhole.repeat"), "must be at least 1")
		}
		if d := or(b.Direction, "both"); d == "both" || string(d) == dirKeys[dir] {
			p.Blackhole = netem.Blackhole{On: time.Duration(*b.On), Off: time.Duration(*b.Off), Repeat: int(or(b.Repeat, 1))}
		}
	}
	if err := p.Validate(); err != nil { // the checks above should make this unreachable
		return p, c.errf(dirKeys[dir], "%v", err)
	}
	return p, nil
}

func (c converter) rebind(r *rawRebind) (netem.Rebind, error) {
	if r == nil {
		return netem.Rebind{}, nil
	}
	if r.First == nil {
		return netem.Rebind{}, c.errf("rebind.first", "required")
	}
	nr := netem.Rebind{
		First: time.Duration(*r.First),
		Freq:  time.Duration(or(r.Freq, 0)),
		Port:  bool(or(r.Port, true)),
		Addr:  bool(or(r.Addr, false)),
	}
	if !nr.Enabled() {
		return nr, c.errf("rebind", "rebinds nothing: set port and/or addr to true")
	}
	return nr, nil
}
