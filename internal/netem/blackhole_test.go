package netem

import (
	"testing"
	"time"
)

func TestBlackholeWindows(t *testing.T) {
	b := Blackhole{On: s, Off: 500 * ms, Repeat: 2}
	// Windows: [1s,1.5s) and [2.5s,3s); the link works for good after 3s.
	inWindow := func(now time.Duration) bool {
		return (now >= s && now < 1500*ms) || (now >= 2500*ms && now < 3*s)
	}
	l := newLink(t, ToClient, 1, Params{Blackhole: b, Delay: 15 * ms})
	ds := feed(l, 600, 0, 10*ms, 1000)
	var want []int
	for i := range ds {
		if inWindow(time.Duration(i) * 10 * ms) {
			want = append(want, i+1)
		}
	}
	if len(want) != 100 {
		t.Fatalf("test bug: %d packets in windows", len(want))
	}
	ok(t, dropsExactly(ds, DropBlackhole, want))

	// Edges: the window is closed at On, open at On+Off.
	for at, active := range map[time.Duration]bool{s - 1: false, s: true, 1500*ms - 1: true, 1500 * ms: false, 3*s - 1: true, 3 * s: false, 100 * s: false} {
		if b.Active(at) != active {
			t.Errorf("Active(%v) = %v", at, !active)
		}
	}
}

func TestBlackholePerDirection(t *testing.T) {
	e := newEmu(t, Config{Schedule: Static("bh", DirParams{
		ToClient: Params{Blackhole: Blackhole{On: 0, Off: s, Repeat: 1}},
	})})
	for i := range 100 {
		now := time.Duration(i) * 10 * ms
		if d := e.Process(now, ToServer, udp(100)); d.Drop {
			t.Fatalf("to-server dropped at %v", now)
		}
		if d := e.Process(now, ToClient, udp(100)); !d.Drop || d.Cause != DropBlackhole {
			t.Fatalf("to-client not blackholed at %v", now)
		}
	}
	st := e.Stats()
	if st.ToClient.Dropped.Blackhole != 100 || st.ToServer.Dropped.Total() != 0 {
		t.Errorf("stats %+v", st)
	}
}
