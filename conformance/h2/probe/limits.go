package probe

import "time"

// The bounds of every probe, in one place. A probe stops at whichever comes first: the frame
// budget, the time budget, or the server cutting the abusive connection.
const (
	MaxFrames   = 20000            // frames the abusive connection may send after its preface
	MaxDuration = 10 * time.Second // how long it may keep sending
	// Grace follows the flood: the server still reacts to frames in flight, and the
	// well-behaved client is still measured. A cut seen in it counts as within the bound.
	Grace = time.Second
	// DrainTime: after the grace, a probe that did not read reads what the server queued for
	// it, at most this long, to find a GOAWAY behind the answers it left unread.
	DrainTime = 250 * time.Millisecond

	BaselineRequests = 20                    // sequential GET / before the probe
	GoodInterval     = 50 * time.Millisecond // a new GET / this often during the probe
	GoodTimeout      = 5 * time.Second       // a well-behaved request slower than this failed

	DefaultLatencyFactor = 10                     // during p95 may be this many times baseline p50...
	LatencySlack         = 100 * time.Millisecond // ...or baseline p95 plus this (x the machine's scale), whichever is larger

	// The machine's share of a slow well-behaved request (machine.go, meter.go). The meter wakes
	// every WakeupTick and samples the machine's run queue; what counts is a quiet
	// MachineWindow before the flood and another after the grace (none of the probe's traffic
	// in flight). The slack grows with the runnable tasks per CPU there, up to MaxSlackScale
	// times; beyond, a p95 over the limit is not judged. MaxSlackScale x LatencySlack stays
	// below Grace: a server that holds the well-behaved client until the abusive connection is
	// gone stalls it for the whole grace, and is still caught at the largest scale.
	WakeupTick    = 2 * time.Millisecond
	MachineWindow = 100 * time.Millisecond
	MaxSlackScale = 8
	// Attempts: a probe whose latency could not be judged (the machine too busy) runs again,
	// from a new baseline, up to this many times in all.
	Attempts = 3

	DribbleStreams = 100                    // streams the zero-window dribble holds open at most
	DribbleTick    = 100 * time.Millisecond // each of them is granted 1 byte this often

	// AbuserReadBuffer is the abusive connection's socket receive buffer while it does not
	// read: small, so the server's own queue, not the kernels' buffers, absorbs the flood.
	AbuserReadBuffer = 4 << 10
)

// Limits are the bounds and measurement settings of one run; Defaults are the constants
// above. Tests shrink them.
type Limits struct {
	Frames           int
	Duration         time.Duration
	Grace            time.Duration
	BaselineRequests int
	GoodInterval     time.Duration
	GoodTimeout      time.Duration
	LatencyFactor    float64
	DribbleStreams   int
	DribbleTick      time.Duration
	Attempts         int
}

// Defaults returns the production bounds.
func Defaults() Limits {
	return Limits{
		Frames:           MaxFrames,
		Duration:         MaxDuration,
		Grace:            Grace,
		BaselineRequests: BaselineRequests,
		GoodInterval:     GoodInterval,
		GoodTimeout:      GoodTimeout,
		LatencyFactor:    DefaultLatencyFactor,
		DribbleStreams:   DribbleStreams,
		DribbleTick:      DribbleTick,
		Attempts:         Attempts,
	}
}

// HandshakeTimeout bounds the abusive connection's TLS and HTTP/2 handshake.
const HandshakeTimeout = 5 * time.Second
