package netem

import (
	"testing"
	"time"
)

func releases(ds []Decision) []time.Duration {
	var ts []time.Duration
	for _, d := range released(ds) {
		ts = append(ts, d.ReleaseAt)
	}
	return ts
}

func TestRateSpacing(t *testing.T) {
	for _, c := range []struct {
		size int
		rate int64
		want time.Duration
	}{
		{1250, 10_000_000, ms},                    // 10000 bits at 10 Mbit/s
		{1500, 22_000_000, 545455},                // 12000/22e6 s = 545454.5 ns, rounded up
		{100, 1_000_000_000, 800},                 // 800 bits at 1 Gbit/s
		{1200, 500_000, 19200 * time.Microsecond}, // 9600 bits at 500 kbit/s
	} {
		l := newLink(t, ToClient, 1, Params{Delay: 15 * ms, Rate: c.rate, Queue: Depth{Packets: 1000}})
		ds := feed(l, 100, 0, 0, c.size) // a burst: all arrive at t=0
		ts := releases(ds)
		if len(ts) != 100 {
			t.Fatalf("%d of 100 released", len(ts))
		}
		ok(t, spacing(ts, c.want))
		if ts[0] != 15*ms+c.want {
			t.Errorf("first release %v, want delay+serialization %v", ts[0], 15*ms+c.want)
		}
	}
}

func TestAchievedRate(t *testing.T) {
	const rate = 10_000_000
	l := newLink(t, ToClient, 1, Params{Rate: rate, Queue: Depth{Packets: 100}})
	ds := feed(l, 10_000, 0, 500*time.Microsecond, 1000) // offered 16 Mbit/s
	last := releases(ds)[len(releases(ds))-1]
	got := float64(l.Stats().BytesOut*8) / last.Seconds()
	ok(t, near("achieved rate", got, rate, 0.001))
	if countDrops(ds, DropQueue) == 0 {
		t.Error("overload did not drop")
	}
}

func TestQueueLimit(t *testing.T) {
	for _, c := range []struct {
		name    string
		queue   Depth
		size    int
		admit   int
		maxPkts int
	}{
		{"packets", Depth{Packets: 25}, 1200, 25, 25},
		{"bytes", Depth{Bytes: 10_000}, 1000, 10, 10},
		{"bytes partial", Depth{Bytes: 10_500}, 1000, 10, 10},
		{"both, packets bind", Depth{Packets: 5, Bytes: 100_000}, 1000, 5, 5},
		{"oversized packet fits empty queue", Depth{Bytes: 500}, 1000, 1, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := newLink(t, ToServer, 1, Params{Rate: 1_000_000, Queue: c.queue})
			ds := feed(l, 40, 0, 0, c.size)
			want := make([]int, 0, 40-c.admit)
			for i := c.admit + 1; i <= 40; i++ {
				want = append(want, i)
			}
			ok(t, dropsExactly(ds, DropQueue, want))
			if st := l.Stats(); st.MaxQueuePackets != c.maxPkts || st.MaxQueueBytes != c.maxPkts*c.size {
				t.Errorf("max queue %d pkts / %d bytes, want %d / %d", st.MaxQueuePackets, st.MaxQueueBytes, c.maxPkts, c.maxPkts*c.size)
			}
		})
	}
}

func TestQueueDrainsAndReadmits(t *testing.T) {
	l := newLink(t, ToServer, 1, Params{Rate: 8_000_000, Queue: Depth{Packets: 2}}) // 1000 B = 1 ms
	ds := feed(l, 3, 0, 0, 1000)
	if !ds[2].Drop {
		t.Fatal("third packet of a burst fit a 2-packet queue")
	}
	// At t=1ms the first has departed: one slot free, not two.
	ds = feed(l, 2, ms, 0, 1000)
	if ds[0].Drop || !ds[1].Drop {
		t.Errorf("after 1 ms: %+v", ds)
	}
	// At t=1ms the last admitted departs at 3 ms; its successor at t=10ms
	// starts on an idle link.
	if d := l.Process(10*ms, udp(1000)); d.ReleaseAt != 11*ms {
		t.Errorf("idle-link release %v, want 11ms", d.ReleaseAt)
	}
}

func TestBDPDefaultQueue(t *testing.T) {
	p := Params{Delay: 20 * ms, Rate: 10_000_000} // BDP = 10e6 * 40ms / 8 = 50000 B
	if got := p.QueueLimit(); got != (Depth{Bytes: 50_000}) {
		t.Fatalf("QueueLimit = %+v, want 50000 bytes", got)
	}
	ds := feed(newLink(t, ToClient, 1, p), 80, 0, 0, 1000)
	if n := len(released(ds)); n != 50 {
		t.Errorf("burst admitted %d, want 50 (one BDP)", n)
	}
	small := Params{Delay: ms, Rate: 100_000}
	if got := small.QueueLimit(); got != (Depth{Bytes: minQueuePackets * MTU}) {
		t.Errorf("tiny BDP = %+v, want floor of %d MTUs", got, minQueuePackets)
	}
	if got := (Params{Delay: ms}).QueueLimit(); !got.IsZero() {
		t.Errorf("no rate, limit %+v: want none", got)
	}
	if got := (Params{Rate: 1, Queue: Depth{Packets: 7}}).QueueLimit(); got != (Depth{Packets: 7}) {
		t.Errorf("explicit queue overridden: %+v", got)
	}
}
