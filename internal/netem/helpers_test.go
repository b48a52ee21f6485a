package netem

import (
	"testing"
	"time"
)

const (
	ms = time.Millisecond
	s  = time.Second
)

// udp returns a PacketInfo for an IPv4/UDP packet of size bytes (28 bytes of
// headers before the payload).
func udp(size int) PacketInfo {
	return PacketInfo{Size: size, PayloadOffset: 28, PayloadLen: size - 28}
}

func newLink(t testing.TB, dir Direction, seed uint64, p Params) *Link {
	t.Helper()
	l, err := NewLink(dir, seed, p)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func newEmu(t testing.TB, cfg Config) *Emulator {
	t.Helper()
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func both(p Params) DirParams { return DirParams{ToServer: p, ToClient: p} }

// feed sends n packets of size bytes, one every interval starting at start.
func feed(l *Link, n int, start, interval time.Duration, size int) []Decision {
	ds := make([]Decision, n)
	for i := range ds {
		ds[i] = l.Process(start+time.Duration(i)*interval, udp(size))
	}
	return ds
}

// released returns the delivered decisions (originals only).
func released(ds []Decision) []Decision {
	var out []Decision
	for _, d := range ds {
		if !d.Drop {
			out = append(out, d)
		}
	}
	return out
}

func countDrops(ds []Decision, c DropCause) int {
	n := 0
	for _, d := range ds {
		if d.Drop && d.Cause == c {
			n++
		}
	}
	return n
}

// dropRuns returns the lengths of maximal runs of consecutive drops.
func dropRuns(ds []Decision) []int {
	var runs []int
	run := 0
	for _, d := range ds {
		if d.Drop {
			run++
			continue
		}
		if run > 0 {
			runs = append(runs, run)
		}
		run = 0
	}
	if run > 0 {
		runs = append(runs, run)
	}
	return runs
}

func mean(xs []float64) float64 {
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

func ok(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Error(err)
	}
}

func timeIndex(i int) time.Duration { return time.Duration(i) }
