package main

import "time"

// The cases' timings. Variables rather than constants only so that the package's tests can run
// the same plays and checks at a smaller scale; the binary never changes them.
var (
	// long_stream_outlives_proxy_timeouts: 8 messages this far apart (28 s in all, beyond the
	// 10 s write timeouts that killed streams), each allowed this much lateness.
	longStreamGap   = 4 * time.Second
	longStreamSlack = 2 * time.Second
	// large_message_flushed: the pause before the second message, and how soon the first must
	// arrive (a stalling converter delivers it only with the second).
	largeMessagePause  = 3 * time.Second
	largeMessageWithin = time.Second
	// *_down_unavailable: the call's deadline (a converter that hangs instead of failing fast
	// makes it DEADLINE_EXCEEDED).
	downDeadline = 10 * time.Second
	// client_cancel_reaches_server: how long the client waits for the server to have the cut
	// call's first message (a chain that holds the request body never delivers it before the
	// cut), and for a cancelled call to end at the server (a chain that never delivers the
	// cancel leaves it open: the server records it so when it stops).
	cutWait    = 3 * time.Second
	settleWait = 5 * time.Second
)

// callTimeout bounds a check's calls that have no timing of their own, so a stalled chain fails
// the check instead of hanging it.
const callTimeout = 20 * time.Second
