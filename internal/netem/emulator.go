package netem

import (
	"fmt"
	"time"
)

// Config is everything an Emulator needs.
type Config struct {
	Profile  string // name reported in Stats
	Seed     uint64
	Schedule Schedule
	Rebind   Rebind
}

// Emulator is the engine the I/O layer drives: both Links, the Schedule and
// the NAT rebinding state. It is pure and not safe for concurrent use.
type Emulator struct {
	cfg   Config
	links [2]*Link
	phase int
	nat   *nat // nil unless rebinding is enabled
	now   time.Duration
}

// New validates cfg and builds an Emulator in the first schedule phase.
func New(cfg Config) (*Emulator, error) {
	if err := cfg.Schedule.Validate(); err != nil {
		return nil, err
	}
	if err := cfg.Rebind.Validate(); err != nil {
		return nil, err
	}
	e := &Emulator{cfg: cfg}
	for _, dir := range Directions {
		l, err := NewLink(dir, cfg.Seed, cfg.Schedule[0].Links.For(dir))
		if err != nil {
			return nil, err
		}
		e.links[dir] = l
	}
	if cfg.Rebind.Enabled() {
		e.nat = newNAT(cfg.Rebind, cfg.Seed)
	}
	return e, nil
}

// Process decides the fate of a packet arriving at now in direction dir.
// Schedule switches and rebindings due by now take effect first, so they
// happen exactly at their times even though nothing calls the engine then.
func (e *Emulator) Process(now time.Duration, dir Direction, pkt PacketInfo) Decision {
	if !dir.Valid() {
		panic(fmt.Sprintf("netem: invalid direction %d", int(dir)))
	}
	e.advance(now)
	rw, pre := e.translate(dir, pkt)
	d := e.links[dir].process(now, pkt, pre)
	if !d.Drop {
		d.Rewrite = rw
	}
	return d
}

func (e *Emulator) advance(now time.Duration) {
	e.now = max(e.now, now)
	for e.phase+1 < len(e.cfg.Schedule) && e.cfg.Schedule[e.phase+1].At <= e.now {
		e.phase++
		ph := e.cfg.Schedule[e.phase]
		for _, dir := range Directions {
			// Validated in New, so this cannot fail.
			_ = e.links[dir].SetParams(ph.At, ph.Links.For(dir))
		}
	}
	if e.nat != nil {
		e.nat.advance(e.now)
	}
}

// translate applies the NAT: to-server rewrites the source, to-client
// rewrites the destination back. Packets without endpoints pass untouched.
func (e *Emulator) translate(dir Direction, pkt PacketInfo) (*Rewrite, DropCause) {
	if e.nat == nil || !pkt.Src.IsValid() || !pkt.Dst.IsValid() {
		return nil, NotDropped
	}
	if dir == ToServer {
		if ext := e.nat.toServer(pkt.Src); ext != pkt.Src {
			return &Rewrite{Src: ext, Dst: pkt.Dst}, NotDropped
		}
		return nil, NotDropped
	}
	c, ok := e.nat.toClient(pkt.Dst)
	if !ok {
		return nil, DropNAT
	}
	if c != pkt.Dst {
		return &Rewrite{Src: pkt.Src, Dst: c}, NotDropped
	}
	return nil, NotDropped
}

// Link exposes one direction, e.g. to read its Params.
func (e *Emulator) Link(dir Direction) *Link { return e.links[dir] }

// Phase returns the name of the schedule phase in force.
func (e *Emulator) Phase() string { return e.cfg.Schedule[e.phase].Name }

// Stats returns a JSON-ready snapshot of the counters.
func (e *Emulator) Stats() Stats {
	s := Stats{
		Profile:  e.cfg.Profile,
		Seed:     e.cfg.Seed,
		Phase:    e.Phase(),
		Clock:    e.now.Seconds(),
		ToServer: e.links[ToServer].Stats(),
		ToClient: e.links[ToClient].Stats(),
	}
	if e.nat != nil {
		s.Rebinds = e.nat.events
	}
	return s
}
