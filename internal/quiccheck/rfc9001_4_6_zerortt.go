package quiccheck

import (
	"fmt"

	"github.com/wirelab/wirelab/internal/quictrace"
)

var zeroRTT = Check{
	Name:        "zerortt",
	Requirement: "RFC 9001 §4.6, RFC 8446 §4.2.10",
	Reads:       WholeTrace,
	Description: "2 handshakes; the requests travel in 0-RTT, the server accepts early data, the client's 1-RTT payload stays small",
	Run:         checkZeroRTT,
}

// maxZeroRTTClient1RTTPayload is the most 1-RTT payload the client may send in the zerortt test.
const maxZeroRTTClient1RTTPayload = 5000

// checkZeroRTT: 2 handshakes; the client's 0-RTT packets carry STREAM data (the requests, not
// just PING/PADDING); the server accepted them (early_data in the second handshake's
// EncryptedExtensions, RFC 8446 §4.2.10 / RFC 9001 §4.6.1); the client's 1-RTT payload (without
// PING/PADDING-only probe packets) is at most maxZeroRTTClient1RTTPayload.
func checkZeroRTT(t *quictrace.Trace) Result {
	const name = "zerortt"
	if r, ok := checkVersionAndCount(name, t, 2); !ok {
		return r
	}
	var zero, one int
	var zeroStream uint64
	opaque, zeroConn := false, -1 // 0-RTT packets tshark could not decrypt; their connection
	for _, p := range t.Filter(func(p *quictrace.Packet) bool { return p.Dir == quictrace.ClientToServer }) {
		switch p.Type {
		case quictrace.Type0RTT:
			zero += p.Payload
			zeroStream += streamBytes(p.Frames)
			opaque, zeroConn = opaque || !p.Decrypted, p.Conn
		case quictrace.Type1RTT:
			if !p.ProbeOnly() { // PMTU probes carry no data
				one += p.Payload
			}
		}
	}
	if zero == 0 {
		return fail(name, "no 0-RTT payload from the client")
	}
	via := ""
	if zeroStream == 0 && opaque {
		if n := requestsOpenedBefore1RTT(t, zeroConn); n > 0 {
			via = fmt.Sprintf(" (0-RTT not decrypted, no early secret in the keylog: %d answered request streams never opened in 1-RTT)", n)
		} else {
			return fail(name, "the client's 0-RTT packets (%d B) could not be decrypted, and every answered request was opened in 1-RTT", zero)
		}
	} else if zeroStream == 0 {
		return fail(name, "the client's 0-RTT packets (%d B) carry no STREAM data (no requests in them)", zero)
	}
	if r, ok := earlyDataAccepted(name, t); !ok {
		return r
	}
	if one > maxZeroRTTClient1RTTPayload {
		return fail(name, "client sent %d B of 1-RTT payload (0-RTT %d B), want <= %d", one, zero, maxZeroRTTClient1RTTPayload)
	}
	return pass(name, "2 handshakes, %d B 0-RTT payload (%d B STREAM data)%s accepted by the server, %d B client 1-RTT payload", zero, zeroStream, via, one)
}

// requestsOpenedBefore1RTT counts, in connection conn, the client-initiated bidirectional streams
// the server sends STREAM data on while the client never sends their first bytes (offset 0) in
// 1-RTT: those requests travelled in 0-RTT. It stands in for decrypting 0-RTT where the client's
// TLS stack logs no CLIENT_EARLY_TRAFFIC_SECRET (Go's crypto/tls, so every quic-go client).
func requestsOpenedBefore1RTT(t *quictrace.Trace, conn int) int {
	answered, opened1RTT := map[int64]bool{}, map[int64]bool{}
	for _, p := range t.Filter(func(p *quictrace.Packet) bool { return p.Conn == conn && p.Type == quictrace.Type1RTT }) {
		for _, f := range p.Frames {
			if !f.IsStream() || f.StreamID%4 != 0 {
				continue
			}
			if p.Dir == quictrace.ServerToClient {
				answered[f.StreamID] = true
			} else if f.Offset == 0 {
				opened1RTT[f.StreamID] = true
			}
		}
	}
	n := 0
	for id := range answered {
		if !opened1RTT[id] {
			n++
		}
	}
	return n
}

func streamBytes(fs []quictrace.Frame) uint64 {
	var n uint64
	for _, f := range fs {
		if f.IsStream() {
			n += f.Length
		}
	}
	return n
}

// earlyDataAccepted: the second handshake's EncryptedExtensions carries early_data, the
// server's only signal that it acted on 0-RTT rather than discarding it.
func earlyDataAccepted(name string, t *quictrace.Trace) (Result, bool) {
	hs := t.Handshakes()
	_, by := serverTLSByHandshake(t)
	ee, ok := firstTLS(by[hs[len(hs)-1]], quictrace.TLSEncryptedExtensions)
	switch {
	case !ok:
		return fail(name, "no EncryptedExtensions in the second handshake (not decrypted?)"), false
	case !ee.HasExtension(quictrace.TLSExtEarlyData):
		return fail(name, "the server's second EncryptedExtensions has no early_data extension: 0-RTT was rejected"), false
	}
	return Result{}, true
}
