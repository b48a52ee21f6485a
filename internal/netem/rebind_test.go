package netem

import (
	"net/netip"
	"testing"
	"time"
)

// rebindRun plays a client talking to a server every 100 ms for 10 s. The
// server answers the address it last saw, as a QUIC server does.
type rebindStep struct {
	at        time.Duration
	ext       netip.AddrPort // client as the server sees it
	backToCli netip.AddrPort // destination after translating the reply
	replyDrop bool
}

func rebindRun(t *testing.T, seed uint64, r Rebind, cli netip.AddrPort) ([]rebindStep, Stats) {
	e := newEmu(t, Config{Seed: seed, Schedule: Static("rebind", DirParams{}), Rebind: r})
	var steps []rebindStep
	for i := range 101 {
		now := time.Duration(i) * 100 * ms
		up := udp(1200)
		up.Src, up.Dst = cli, server
		d := e.Process(now, ToServer, up)
		st := rebindStep{at: now, ext: cli}
		if d.Rewrite != nil {
			st.ext = d.Rewrite.Src
			if d.Rewrite.Dst != server {
				t.Fatalf("to-server rewrite touched the destination: %+v", d.Rewrite)
			}
		}
		down := udp(1200)
		down.Src, down.Dst = server, st.ext
		rd := e.Process(now, ToClient, down)
		st.replyDrop = rd.Drop
		st.backToCli = down.Dst
		if rd.Rewrite != nil {
			st.backToCli = rd.Rewrite.Dst
		}
		steps = append(steps, st)
	}
	return steps, e.Stats()
}

func TestRebindSchedule(t *testing.T) {
	cli := netip.MustParseAddrPort("193.167.0.100:50000")
	for _, c := range []struct {
		name string
		r    Rebind
		cli  netip.AddrPort
	}{
		{"port", Rebind{First: s, Freq: 3 * s, Port: true}, cli},
		{"addr+port", Rebind{First: s, Freq: 3 * s, Port: true, Addr: true}, cli},
		{"addr only", Rebind{First: s, Freq: 3 * s, Addr: true}, cli},
		{"ipv6", Rebind{First: s, Freq: 3 * s, Port: true, Addr: true}, netip.MustParseAddrPort("[fd00:cafe::100]:50000")},
	} {
		t.Run(c.name, func(t *testing.T) {
			steps, st := rebindRun(t, 1, c.r, c.cli)
			events := map[time.Duration]bool{s: true, 4 * s: true, 7 * s: true, 10 * s: true}
			if st.Rebinds != len(events) {
				t.Errorf("%d rebinds, want %d", st.Rebinds, len(events))
			}
			if due := c.r.Due(time.Duration(st.Clock * float64(time.Second))); st.Clock != 10 || due != st.Rebinds {
				t.Errorf("engine clock %gs: %d rebinds due, %d made", st.Clock, due, st.Rebinds)
			}
			if steps[0].ext != c.cli {
				t.Errorf("before the first rebind the NAT is identity, got %v", steps[0].ext)
			}
			for i := 1; i < len(steps); i++ {
				prev, cur := steps[i-1].ext, steps[i].ext
				changed := prev != cur
				if changed != events[steps[i].at] {
					t.Errorf("at %v: %v -> %v (changed=%v)", steps[i].at, prev, cur, changed)
				}
				if changed {
					if c.r.Port == (cur.Port() == prev.Port()) {
						t.Errorf("at %v: port %d -> %d with Port=%v", steps[i].at, prev.Port(), cur.Port(), c.r.Port)
					}
					if c.r.Addr == (cur.Addr() == prev.Addr()) {
						t.Errorf("at %v: addr %v -> %v with Addr=%v", steps[i].at, prev.Addr(), cur.Addr(), c.r.Addr)
					}
					if !samePrefix(cur.Addr(), c.cli.Addr()) || cur.Addr() == c.cli.Addr() && c.r.Addr {
						t.Errorf("at %v: new address %v leaves the client network or equals the client", steps[i].at, cur.Addr())
					}
				}
				if steps[i].replyDrop || steps[i].backToCli != c.cli {
					t.Errorf("at %v: reply to %v came back to %v (dropped=%v), want %v", steps[i].at, cur, steps[i].backToCli, steps[i].replyDrop, c.cli)
				}
			}
		})
	}
}

func samePrefix(a, b netip.Addr) bool {
	bits := 112 // the NAT keeps 14 of 16 bytes
	if a.Is4() {
		bits = 24
	}
	pa, _ := a.Prefix(bits)
	pb, _ := b.Prefix(bits)
	return pa == pb
}

func TestRebindForgetsOldBinding(t *testing.T) {
	e := newEmu(t, Config{Seed: 3, Schedule: Static("rebind", DirParams{}), Rebind: Rebind{First: s, Port: true}})
	up := udp(100)
	up.Src, up.Dst = client, server
	e.Process(0, ToServer, up)
	e.Process(s, ToServer, up) // rebinds
	down := udp(100)
	down.Src, down.Dst = server, client // the pre-rebind (identity) binding
	if d := e.Process(s, ToClient, down); !d.Drop || d.Cause != DropNAT {
		t.Errorf("reply to the old binding: %+v", d)
	}
	stranger := down
	stranger.Dst = netip.MustParseAddrPort("193.167.0.100:1")
	if d := e.Process(s, ToClient, stranger); !d.Drop || d.Cause != DropNAT {
		t.Errorf("reply to an unknown binding: %+v", d)
	}
	if e.Stats().ToClient.Dropped.NAT != 2 {
		t.Errorf("stats %+v", e.Stats().ToClient)
	}
	// Freq 0: exactly one rebinding however long the run.
	e.Process(100*s, ToServer, up)
	if e.Stats().Rebinds != 1 {
		t.Errorf("rebinds %d, want 1", e.Stats().Rebinds)
	}
}

func TestRebindDeterministic(t *testing.T) {
	r := Rebind{First: s, Freq: 3 * s, Port: true, Addr: true}
	a, _ := rebindRun(t, 7, r, client)
	b, _ := rebindRun(t, 7, r, client)
	c, _ := rebindRun(t, 8, r, client)
	same := func(x, y []rebindStep) bool {
		for i := range x {
			if x[i] != y[i] {
				return false
			}
		}
		return true
	}
	if !same(a, b) {
		t.Error("same seed, different bindings")
	}
	if same(a, c) {
		t.Error("different seeds, same bindings")
	}
}

func TestRebindSeveralFlows(t *testing.T) {
	e := newEmu(t, Config{Seed: 1, Schedule: Static("rebind", DirParams{}), Rebind: Rebind{First: s, Freq: s, Port: true}})
	flows := []netip.AddrPort{client, netip.MustParseAddrPort("193.167.0.100:50001"), netip.MustParseAddrPort("193.167.0.101:50000")}
	for i := range 50 {
		now := time.Duration(i) * 200 * ms
		seen := map[netip.AddrPort]bool{}
		for _, f := range flows {
			up := udp(100)
			up.Src, up.Dst = f, server
			ext := f
			if d := e.Process(now, ToServer, up); d.Rewrite != nil {
				ext = d.Rewrite.Src
			}
			if seen[ext] {
				t.Fatalf("at %v two flows share %v", now, ext)
			}
			seen[ext] = true
			down := udp(100)
			down.Src, down.Dst = server, ext
			d := e.Process(now, ToClient, down)
			back := ext
			if d.Rewrite != nil {
				back = d.Rewrite.Dst
			}
			if d.Drop || back != f {
				t.Fatalf("at %v reply to %v went to %v (drop=%v), want %v", now, ext, back, d.Drop, f)
			}
		}
	}
}

func TestNoNATWithoutRebind(t *testing.T) {
	e := newEmu(t, Config{Schedule: Static("plain", DirParams{})})
	down := udp(100)
	down.Src, down.Dst = server, client
	if d := e.Process(0, ToClient, down); d.Drop || d.Rewrite != nil {
		t.Errorf("plain link touched the packet: %+v", d)
	}
}

func TestRebindDue(t *testing.T) {
	every3 := Rebind{First: 3 * s, Freq: 3 * s, Port: true}
	for _, c := range []struct {
		r     Rebind
		clock time.Duration
		want  int
	}{
		{every3, 2999 * ms, 0}, {every3, 3 * s, 1}, {every3, 11 * s, 3}, {every3, 15 * s, 5},
		{Rebind{First: 3 * s, Port: true}, time.Hour, 1}, {Rebind{First: 3 * s, Freq: 3 * s}, time.Hour, 0},
	} {
		if got := c.r.Due(c.clock); got != c.want {
			t.Errorf("%+v at %v: %d due, want %d", c.r, c.clock, got, c.want)
		}
	}
}
