package main

import "time"

// blockClock adds up how long body data was ready but a flow-control window kept it from being
// sent, and which window did: both can be closed at once, so their times may overlap.
type blockClock struct {
	since        time.Time // start of the current state
	stream, conn bool      // which windows are closed in the current state (neither: not blocked)
	episodeStart time.Time // when the current blocked stretch began
	total        time.Duration
	onStream     time.Duration
	onConn       time.Duration
}

// set records that from now on the sender is blocked by the stream window, the connection
// window, both or (both false) neither.
func (b *blockClock) set(now time.Time, stream, conn bool) {
	wasBlocked := b.blocked()
	if wasBlocked {
		d := now.Sub(b.since)
		b.total += d
		if b.stream {
			b.onStream += d
		}
		if b.conn {
			b.onConn += d
		}
	}
	b.since, b.stream, b.conn = now, stream, conn
	if !wasBlocked && b.blocked() {
		b.episodeStart = now
	}
}

func (b *blockClock) blocked() bool { return b.stream || b.conn }

// episode is how long the current blocked stretch has lasted (0 when not blocked).
func (b *blockClock) episode(now time.Time) time.Duration {
	if !b.blocked() {
		return 0
	}
	return now.Sub(b.episodeStart)
}
