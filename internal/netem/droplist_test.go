package netem

import (
	"testing"
	"time"
)

func TestDroplistPerDirection(t *testing.T) {
	e := newEmu(t, Config{Schedule: Static("droplist", DirParams{
		ToServer: Params{Droplist: []int{1, 3, 5}, Delay: 15 * ms},
		ToClient: Params{Droplist: []int{2, 4, 40}, Delay: 15 * ms},
	})})
	var up, down []Decision
	for i := range 60 { // interleaved, unevenly: index is per direction
		now := time.Duration(i) * ms
		if i%3 == 0 {
			down = append(down, e.Process(now, ToClient, udp(1200)))
		} else {
			up = append(up, e.Process(now, ToServer, udp(100)))
		}
	}
	ok(t, dropsExactly(up, DropDroplist, []int{1, 3, 5}))
	ok(t, dropsExactly(down, DropDroplist, []int{2, 4})) // 20 packets: 40 never comes
}

func TestDroplistCountsEveryArrival(t *testing.T) {
	// Index 3 is the third packet to arrive even if packet 2 was lost to
	// another cause (the upstream index counts all arrivals at the link).
	l := newLink(t, ToClient, 1, Params{Droplist: []int{3}, Blackhole: Blackhole{On: ms, Off: ms, Repeat: 1}})
	ds := feed(l, 4, 0, ms, 500) // t=0 on, t=1ms blackholed, t=2ms droplisted
	if ds[1].Cause != DropBlackhole || ds[2].Cause != DropDroplist || ds[0].Drop || ds[3].Drop {
		t.Errorf("got %+v", ds)
	}
}
