package netem

import (
	"testing"
	"time"
)

func twoPhase(first, second Params, at time.Duration) Schedule {
	return Schedule{{At: 0, Name: "first", Links: both(first)}, {At: at, Name: "second", Links: both(second)}}
}

func TestScheduleSwitchesAtTime(t *testing.T) {
	e := newEmu(t, Config{Schedule: twoPhase(Params{Delay: 100 * ms}, Params{Delay: 10 * ms}, 5*s)})
	var ds []Decision
	for i := range 400 { // 4.8 s .. 5.199 s, 1 ms apart
		now := 4800*ms + time.Duration(i)*ms
		d := e.Process(now, ToClient, udp(1000))
		ds = append(ds, d)
		if now < 5*s && (d.ReleaseAt != now+100*ms || e.Phase() != "first") {
			t.Fatalf("before the switch: %v -> %v in %q", now, d.ReleaseAt, e.Phase())
		}
		if now >= 5*s && e.Phase() != "second" {
			t.Fatalf("at %v still in %q", now, e.Phase())
		}
	}
	// Packets scheduled before the switch (last one leaves at 5.099s) are
	// not overtaken by the faster phase...
	ok(t, noReorder(ds))
	if d := ds[200]; d.ReleaseAt != 4999*ms+100*ms {
		t.Errorf("first packet after the switch released at %v, want held to 5.099s", d.ReleaseAt)
	}
	// ...and once they are gone the new delay applies.
	if d := ds[399]; d.ReleaseAt != 5199*ms+10*ms {
		t.Errorf("late packet released at %v, want 5.209s", d.ReleaseAt)
	}
	if e.Stats().Phase != "second" {
		t.Errorf("stats phase %q", e.Stats().Phase)
	}
}

func TestScheduleKeepsQueueBacklog(t *testing.T) {
	// Phase one: 8 Mbit/s (1000 B = 1 ms); phase two at 10 ms: 80 Mbit/s.
	sched := twoPhase(Params{Rate: 8_000_000, Queue: Depth{Packets: 100}}, Params{Rate: 80_000_000, Queue: Depth{Packets: 100}}, 10*ms)
	e := newEmu(t, Config{Schedule: sched})
	var ds []Decision
	for range 20 { // backlog: departures at 1..20 ms
		ds = append(ds, e.Process(0, ToServer, udp(1000)))
	}
	d := e.Process(10*ms, ToServer, udp(1000))
	ds = append(ds, d)
	if want := 20*ms + 100*time.Microsecond; d.ReleaseAt != want {
		t.Errorf("after the switch: released %v, want behind the backlog at %v", d.ReleaseAt, want)
	}
	ok(t, noReorder(ds))
}

func TestScheduleBlackholeRelativeToPhase(t *testing.T) {
	sched := twoPhase(Params{}, Params{Blackhole: Blackhole{On: s, Off: s, Repeat: 1}}, 10*s)
	e := newEmu(t, Config{Schedule: sched})
	for _, c := range []struct {
		at   time.Duration
		drop bool
	}{{10 * s, false}, {11*s - 1, false}, {11 * s, true}, {12*s - 1, true}, {12 * s, false}} {
		if d := e.Process(c.at, ToClient, udp(100)); d.Drop != c.drop {
			t.Errorf("at %v drop=%v, want %v", c.at, d.Drop, c.drop)
		}
	}
}

func TestScheduleValidate(t *testing.T) {
	good := twoPhase(Params{}, Params{}, s)
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]Schedule{
		"empty":         {},
		"late start":    {{At: s}},
		"out of order":  twoPhase(Params{}, Params{}, 0),
		"invalid phase": twoPhase(Params{}, Params{Loss: 2}, s),
	} {
		if bad.Validate() == nil {
			t.Errorf("%s accepted", name)
		}
		if _, err := New(Config{Schedule: bad}); err == nil {
			t.Errorf("New accepted %s", name)
		}
	}
}

func TestScheduleSwitchToReorderingPhaseKeepsEarlierPackets(t *testing.T) {
	// The new phase lets jitter reorder, but not ahead of packets scheduled
	// before the switch.
	fast := Params{Delay: 5 * ms, Jitter: 4 * ms, JitterReorder: true}
	e := newEmu(t, Config{Seed: 2, Schedule: twoPhase(Params{Delay: 100 * ms}, fast, s)})
	var before time.Duration
	for i := range 200 {
		now := 900*ms + time.Duration(i)*ms
		d := e.Process(now, ToClient, udp(500))
		if now < s {
			before = max(before, d.ReleaseAt)
		} else if d.ReleaseAt < before {
			t.Fatalf("packet at %v released at %v, before %v scheduled in the old phase", now, d.ReleaseAt, before)
		}
	}
}
