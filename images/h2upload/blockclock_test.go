package main

import (
	"testing"
	"time"
)

func TestBlockClockAttributesTimeToWindows(t *testing.T) {
	t0 := time.Unix(0, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	var b blockClock
	b.set(at(0), true, false)  // stream window closed
	b.set(at(10), true, true)  // then both
	b.set(at(30), false, true) // the stream reopens
	if got := b.episode(at(35)); got != 35*time.Millisecond {
		t.Errorf("episode %v, want 35ms", got)
	}
	b.set(at(40), false, false) // unblocked
	b.set(at(100), false, true)
	b.set(at(105), false, false)
	if b.total != 45*time.Millisecond || b.onStream != 30*time.Millisecond || b.onConn != 35*time.Millisecond {
		t.Errorf("total %v, stream %v, connection %v; want 45ms, 30ms, 35ms", b.total, b.onStream, b.onConn)
	}
	if b.blocked() || b.episode(at(200)) != 0 {
		t.Error("still blocked after the windows opened")
	}
}
