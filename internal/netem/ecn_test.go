package netem

import "testing"

func TestCEMarkingAboveThreshold(t *testing.T) {
	for _, c := range []struct {
		name      string
		threshold Depth
		firstMark int // 1-based index of the first packet marked in a burst
	}{
		{"packets", Depth{Packets: 10}, 11},
		{"bytes", Depth{Bytes: 15_000}, 16}, // 1000-byte packets: 16 KB > 15 KB
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, ecn := range []ECN{NotECT, ECT0, ECT1, CE} {
				l := newLink(t, ToClient, 1, Params{Rate: 1_000_000, Queue: Depth{Packets: 100}, CEThreshold: c.threshold})
				marked := 0
				for i := 1; i <= 30; i++ {
					p := udp(1000)
					p.ECN = ecn
					d := l.Process(0, p)
					want := ecn.IsECT() && i >= c.firstMark
					if d.MarkCE != want {
						t.Fatalf("%v packet %d: MarkCE=%v, want %v", ecn, i, d.MarkCE, want)
					}
					if d.MarkCE {
						marked++
					}
				}
				if l.Stats().CEMarked != uint64(marked) {
					t.Errorf("%v: stats %d, decisions %d", ecn, l.Stats().CEMarked, marked)
				}
			}
		})
	}
}

func TestCEMarkingStopsWhenQueueDrains(t *testing.T) {
	l := newLink(t, ToServer, 1, Params{Rate: 8_000_000, Queue: Depth{Packets: 100}, CEThreshold: Depth{Packets: 2}})
	p := udp(1000) // 1 ms each
	p.ECN = ECT0
	feed(l, 4, 0, 0, 1000)
	if d := l.Process(0, p); !d.MarkCE {
		t.Fatal("5th packet of a burst over a 2-packet threshold not marked")
	}
	if d := l.Process(50*ms, p); d.MarkCE {
		t.Error("marked on an empty queue")
	}
	if (Params{}).CEThreshold.exceededBy(Depth{Packets: 1 << 20}) {
		t.Error("zero threshold marks")
	}
}
