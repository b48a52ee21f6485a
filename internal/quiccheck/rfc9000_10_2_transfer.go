package quiccheck

import (
	"fmt"

	"github.com/wirelab/wirelab/internal/quictrace"
)

var transfer = Check{
	Name:        "transfer",
	Requirement: "RFC 9000 §10.2, RFC 9114 §8.1",
	Reads:       LongHeaders,
	Description: "1 handshake in version 1, and every CONNECTION_CLOSE either side sent carries no error",
	Run:         checkTransfer,
}

// checkTransfer: 1 handshake and version 0x1 (the files are compared by the suite).
func checkTransfer(t *quictrace.Trace) Result {
	const name = "transfer"
	if r, ok := checkVersionAndCount(name, t, 1); !ok {
		return r
	}
	closes, r, ok := closedWithoutError(name, t)
	if !ok {
		return r
	}
	if t.LongHeadersOnly {
		return pass(name, "1 handshake, server Initials v1, %s", closes)
	}
	var bytes uint64
	for _, p := range t.Filter(func(p *quictrace.Packet) bool {
		return p.Dir == quictrace.ServerToClient && p.Type == quictrace.Type1RTT
	}) {
		for _, f := range p.Frames {
			if f.IsStream() {
				bytes += f.Length
			}
		}
	}
	return pass(name, "1 handshake, server Initials v1, %d server STREAM bytes, %s", bytes, closes)
}

// closedWithoutError is the description's "connection close completes with a zero error code":
// every CONNECTION_CLOSE either side sent carries NO_ERROR (transport 0x0; application 0x0, or
// H3_NO_ERROR 0x100 for HTTP/3). A trace without any close (lost, or the endpoints let the
// connection idle out) is not held against the stacks: upstream checks nothing here.
func closedWithoutError(name string, t *quictrace.Trace) (string, Result, bool) {
	n := 0
	for _, p := range t.Packets() {
		for _, f := range p.Frames {
			if f.Type != quictrace.FrameConnectionClose && f.Type != quictrace.FrameApplicationClose {
				continue
			}
			n++
			if f.ErrorCode != 0 && !(f.Type == quictrace.FrameApplicationClose && f.ErrorCode == quictrace.H3NoError) {
				side := "the client"
				if p.Dir == quictrace.ServerToClient {
					side = "the server"
				}
				return "", fail(name, "%s closed the connection with error 0x%x (frame 0x%x), want a zero error code", side, f.ErrorCode, f.Type), false
			}
		}
	}
	if n == 0 {
		return "no CONNECTION_CLOSE in the trace", Result{}, true
	}
	return fmt.Sprintf("%d CONNECTION_CLOSE frame(s), all without error", n), Result{}, true
}
