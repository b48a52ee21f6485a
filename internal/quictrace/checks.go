package quictrace

import (
	"fmt"
	"sort"
	"strings"
)

// Verdict of a check.
type Verdict string

const (
	Pass Verdict = "pass"
	Fail Verdict = "fail"
)

// Result is one check's verdict with a one-line reason.
type Result struct {
	Check   string
	Verdict Verdict
	Reason  string
}

// OK reports whether the check passed.
func (r Result) OK() bool { return r.Verdict == Pass }

func (r Result) String() string { return r.Check + ": " + string(r.Verdict) + ": " + r.Reason }

func pass(name, format string, a ...any) Result {
	return Result{Check: name, Verdict: Pass, Reason: fmt.Sprintf(format, a...)}
}

func fail(name, format string, a ...any) Result {
	return Result{Check: name, Verdict: Fail, Reason: fmt.Sprintf(format, a...)}
}

// Check verifies one test case on a trace (the server-side trace, like upstream).
type Check func(t *Trace) Result

// Checks maps each test case to its trace check. File comparisons are not trace checks and live
// with the suite.
var Checks = map[string]Check{
	"handshake":           CheckHandshake,
	"transfer":            CheckTransfer,
	"retry":               CheckRetry,
	"v2":                  CheckV2,
	"versionnegotiation":  CheckVersionNegotiation,
	"chacha20":            CheckChaCha20,
	"http3":               CheckHTTP3,
	"resumption":          CheckResumption,
	"zerortt":             CheckZeroRTT,
	"keyupdate":           CheckKeyUpdate,
	"multiplexing":        CheckMultiplexing,
	"ecn":                 CheckECN,
	"amplificationlimit":  CheckAmplificationLimit,
	"rebind-port":         CheckRebindPort,
	"rebind-addr":         CheckRebindAddr,
	"connectionmigration": CheckConnectionMigration,
	"ipv6":                CheckIPv6,
	"longrtt":             CheckLongRTT,
	"handshakeloss":       HandshakeCount("handshakeloss", 50),
	"handshakecorruption": HandshakeCount("handshakecorruption", 50),
}

// LongHeaderChecks read nothing but long-header packets (and what is coalesced with them):
// versions, Retry, handshake counts, TLS messages and transport parameters. A cell whose checks
// are all here loads its trace with LongHeaderFilter. Left out on purpose: zerortt (the client's
// 1-RTT payload), keyupdate, ecn, amplificationlimit (every server byte before validation),
// multiplexing (the client's streams against MAX_STREAMS), http3 and the path checks.
var LongHeaderChecks = map[string]bool{
	"handshake": true, "transfer": true, "retry": true, "v2": true, "versionnegotiation": true,
	"chacha20": true, "resumption": true, "longrtt": true,
	"handshakeloss": true, "handshakecorruption": true,
}

// LongHeadersSuffice reports whether every named check is in LongHeaderChecks.
func LongHeadersSuffice(checks []string) bool {
	for _, c := range checks {
		if !LongHeaderChecks[c] {
			return false
		}
	}
	return true
}

// CheckNames lists the test cases that have a trace check, sorted.
func CheckNames() []string {
	var out []string
	for k := range Checks {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ServerInitialVersions returns the distinct versions of server-sent Initial packets.
func (t *Trace) ServerInitialVersions() []uint32 {
	return serverInitialsDistinct(t, func(p *Packet) uint32 { return p.Version })
}

func versions(vs []uint32) string {
	var s []string
	for _, v := range vs {
		s = append(s, fmt.Sprintf("0x%x", v))
	}
	return "[" + strings.Join(s, " ") + "]"
}

// checkVersionAndCount is upstream's common part: server Initials only v1, n handshakes.
func checkVersionAndCount(name string, t *Trace, want int) (Result, bool) {
	vs := t.ServerInitialVersions()
	if len(vs) == 0 {
		return fail(name, "no server-sent Initial packet in the trace"), false
	}
	if len(vs) != 1 || vs[0] != Version1 {
		return fail(name, "server Initials use versions %s, want only 0x1", versions(vs)), false
	}
	if hs := t.Handshakes(); len(hs) != want {
		return fail(name, "%d handshakes (distinct server SCIDs in server Initials), want %d", len(hs), want), false
	}
	return Result{}, true
}

// CheckHandshake: only version 0x1 in server Initials, no Retry, exactly 1 handshake.
func CheckHandshake(t *Trace) Result {
	const name = "handshake"
	if r, ok := checkVersionAndCount(name, t, 1); !ok {
		return r
	}
	if n := len(t.Filter(func(p *Packet) bool { return p.Type == TypeRetry })); n > 0 {
		return fail(name, "%d Retry packet(s) in the trace, want none", n)
	}
	return pass(name, "1 handshake, server Initials v1, no Retry")
}

// CheckTransfer: 1 handshake and version 0x1 (the files are compared by the suite).
func CheckTransfer(t *Trace) Result {
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
	for _, p := range t.Filter(func(p *Packet) bool { return p.Dir == ServerToClient && p.Type == Type1RTT }) {
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
func closedWithoutError(name string, t *Trace) (string, Result, bool) {
	n := 0
	for _, p := range t.Packets() {
		for _, f := range p.Frames {
			if f.Type != FrameConnectionClose && f.Type != FrameApplicationClose {
				continue
			}
			n++
			if f.ErrorCode != 0 && !(f.Type == FrameApplicationClose && f.ErrorCode == H3NoError) {
				side := "the client"
				if p.Dir == ServerToClient {
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

// CheckRetry: a Retry packet with a token; the client's next attempt echoes that token to the
// Retry's SCID without resetting its packet numbers; the server accepts it (no further Retry);
// 1 handshake.
func CheckRetry(t *Trace) Result {
	const name = "retry"
	pk := t.Packets()
	retries := retryIndexes(pk)
	if len(retries) == 0 {
		return fail(name, "no Retry packet from the server")
	}
	for _, i := range retries {
		if pk[i].Token == "" {
			return fail(name, "the Retry packet (frame %d) carries no token", pk[i].Frame)
		}
	}
	ti := tokenInitial(pk, retries)
	if ti < 0 {
		return fail(name, "no client Initial after the Retry carries its %d-byte token", len(pk[retries[0]].Token)/2)
	}
	if r, ok := clientUsesRetrySCID(name, pk, retries, ti); !ok {
		return r
	}
	if r, ok := packetNumbersContinue(name, pk, ti); !ok {
		return r
	}
	if r, ok := noRetryAfterToken(name, pk, retries, ti); !ok {
		return r
	}
	if r, ok := checkVersionAndCount(name, t, 1); !ok {
		return r
	}
	return pass(name, "Retry with a %d-byte token, echoed in a later client Initial (PN %d) to the Retry's SCID, 1 handshake", len(pk[ti].Token)/2, pk[ti].PN)
}

// retryIndexes returns the indexes of the server's Retry packets in pk.
func retryIndexes(pk []Packet) []int {
	var out []int
	for i, p := range pk {
		if p.Type == TypeRetry && p.Dir == ServerToClient {
			out = append(out, i)
		}
	}
	return out
}

// tokenInitial returns the index of the first client Initial after a Retry that carries one of
// the Retry tokens sent before it, or -1.
func tokenInitial(pk []Packet, retries []int) int {
	tokens := map[string]int{}
	next := 0
	for i, p := range pk {
		for next < len(retries) && retries[next] < i {
			tokens[pk[retries[next]].Token] = retries[next]
			next++
		}
		if p.Dir == ClientToServer && p.Type == TypeInitial && p.Token != "" {
			if _, ok := tokens[p.Token]; ok {
				return i
			}
		}
	}
	return -1
}

// clientUsesRetrySCID: RFC 9000 §17.2.5.2, the client addresses its next Initial to the SCID of
// the Retry whose token it echoes.
func clientUsesRetrySCID(name string, pk []Packet, retries []int, ti int) (Result, bool) {
	for _, i := range retries {
		if i < ti && pk[i].Token == pk[ti].Token {
			if pk[ti].DCID != pk[i].SCID {
				return fail(name, "the client Initial with the Retry token (frame %d) goes to DCID %s, want the Retry's SCID %s", pk[ti].Frame, pk[ti].DCID, pk[i].SCID), false
			}
			return Result{}, true
		}
	}
	return Result{}, true
}

// packetNumbersContinue: RFC 9000 §17.2.5.3, a client MUST NOT reset its packet numbers after a
// Retry: the token-carrying Initial has a higher number than every earlier client Initial.
func packetNumbersContinue(name string, pk []Packet, ti int) (Result, bool) {
	if pk[ti].PN < 0 {
		return Result{}, true // header not decrypted: nothing to compare
	}
	for _, p := range pk[:ti] {
		if p.Dir == ClientToServer && p.Type == TypeInitial && p.PN >= pk[ti].PN {
			return fail(name, "the client Initial with the Retry token (frame %d) has packet number %d, not above %d of its Initial in frame %d: packet numbers were reset", pk[ti].Frame, pk[ti].PN, p.PN, p.Frame), false
		}
	}
	return Result{}, true
}

// noRetryAfterToken: once the client echoes a valid token the server must accept the address
// (RFC 9000 §8.1.2) and a client processes at most one Retry (§17.2.5.2). Several Retries
// before the token are fine: a stateless server answers each retransmitted first Initial.
func noRetryAfterToken(name string, pk []Packet, retries []int, ti int) (Result, bool) {
	for _, i := range retries {
		if i > ti {
			return fail(name, "the server sent another Retry (frame %d) after the client echoed a token (frame %d): the token was not accepted", pk[i].Frame, pk[ti].Frame), false
		}
	}
	return Result{}, true
}

// CheckV2: the client's first Initial is v1 (its later Initials v1 or v2), all server Initials and
// all Handshake packets are v2 (compatible version negotiation, RFC 9368/9369).
func CheckV2(t *Trace) Result {
	const name = "v2"
	ci := t.Filter(func(p *Packet) bool { return p.Dir == ClientToServer && p.Type == TypeInitial })
	if len(ci) == 0 {
		return fail(name, "no client Initial in the trace")
	}
	if ci[0].Version != Version1 {
		return fail(name, "the client's first Initial is 0x%x, want 0x1", ci[0].Version)
	}
	for _, p := range ci {
		if p.Version != Version1 && p.Version != Version2 {
			return fail(name, "client Initial (frame %d) with version 0x%x", p.Frame, p.Version)
		}
	}
	si := t.Filter(func(p *Packet) bool { return p.Dir == ServerToClient && p.Type == TypeInitial })
	if len(si) == 0 {
		return fail(name, "no server Initial in the trace")
	}
	for _, p := range si {
		if p.Version != Version2 {
			return fail(name, "server Initial (frame %d) is 0x%x, want 0x6b3343cf", p.Frame, p.Version)
		}
	}
	hs := t.Filter(func(p *Packet) bool { return p.Type == TypeHandshake })
	if len(hs) == 0 {
		return fail(name, "no Handshake packets in the trace")
	}
	for _, p := range hs {
		if p.Version != Version2 {
			return fail(name, "%s Handshake packet (frame %d) is 0x%x, want 0x6b3343cf", p.Dir, p.Frame, p.Version)
		}
	}
	return pass(name, "client started with v1; %d server Initials and %d Handshake packets are v2", len(si), len(hs))
}

// ClientHellos returns the ClientHello messages in client-sent Initial packets.
func (t *Trace) ClientHellos() []TLSMessage {
	var out []TLSMessage
	for _, p := range t.Filter(func(p *Packet) bool { return p.Dir == ClientToServer && p.Type == TypeInitial }) {
		for _, m := range p.TLS {
			if m.Type == TLSClientHello {
				out = append(out, m)
			}
		}
	}
	return out
}

// CheckChaCha20: every ClientHello offers only TLS_CHACHA20_POLY1305_SHA256 (0x1303).
func CheckChaCha20(t *Trace) Result {
	const name = "chacha20"
	chs := t.ClientHellos()
	if len(chs) == 0 {
		return fail(name, "no ClientHello in client Initials (not decrypted?)")
	}
	for _, m := range chs {
		if len(m.CipherSuites) != 1 || m.CipherSuites[0] != TLSChaCha20Poly1305SHA256 {
			return fail(name, "ClientHello offers cipher suites %s, want only 0x1303", suites(m.CipherSuites))
		}
	}
	for _, m := range t.serverHellos() {
		if len(m.CipherSuites) != 1 || m.CipherSuites[0] != TLSChaCha20Poly1305SHA256 {
			return fail(name, "ServerHello selects %s, want 0x1303 (the only suite offered)", suites(m.CipherSuites))
		}
	}
	return pass(name, "%d ClientHello(s) offer only 0x1303", len(chs))
}

// serverHellos returns the ServerHello messages in server-sent Initial packets.
func (t *Trace) serverHellos() []TLSMessage {
	var out []TLSMessage
	for _, p := range t.Filter(func(p *Packet) bool { return p.Dir == ServerToClient && p.Type == TypeInitial }) {
		for _, m := range p.TLS {
			if m.Type == TLSServerHello {
				out = append(out, m)
			}
		}
	}
	return out
}

func suites(s []uint16) string {
	var out []string
	for _, v := range s {
		out = append(out, fmt.Sprintf("0x%04x", v))
	}
	return "[" + strings.Join(out, " ") + "]"
}

// serverTLSByHandshake groups the TLS messages servers sent in long header packets by the
// server's SCID (= handshake), in order of first appearance.
func (t *Trace) serverTLSByHandshake() ([]string, map[string][]TLSMessage) {
	var order []string
	by := map[string][]TLSMessage{}
	for _, p := range t.Filter(func(p *Packet) bool { return p.Dir == ServerToClient && p.LongHdr }) {
		if _, ok := by[p.SCID]; !ok {
			order = append(order, p.SCID)
			by[p.SCID] = nil
		}
		by[p.SCID] = append(by[p.SCID], p.TLS...)
	}
	return order, by
}

func hasTLS(ms []TLSMessage, typ int) bool {
	for _, m := range ms {
		if m.Type == typ {
			return true
		}
	}
	return false
}

// CheckResumption: 2 handshakes; the first sends a Certificate; the second is a resumed one: its
// ServerHello accepts a PSK (RFC 8446 §4.2.11) and its decrypted Handshake flight has no
// Certificate (RFC 9001 §4.5).
func CheckResumption(t *Trace) Result {
	const name = "resumption"
	if r, ok := checkVersionAndCount(name, t, 2); !ok {
		return r
	}
	hs := t.Handshakes()
	_, by := t.serverTLSByHandshake()
	if !hasTLS(by[hs[0]], TLSCertificate) {
		return fail(name, "no Certificate in the first handshake (not decrypted?)")
	}
	if r, ok := resumedWithPSK(name, by[hs[1]]); !ok {
		return r
	}
	return pass(name, "2 handshakes, Certificate only in the first, the second resumed with a PSK")
}

// resumedWithPSK: the handshake's ServerHello carries pre_shared_key, its EncryptedExtensions
// was decrypted (so a missing Certificate is evidence, not a missing key) and no Certificate
// follows.
func resumedWithPSK(name string, ms []TLSMessage) (Result, bool) {
	sh, ok := firstTLS(ms, TLSServerHello)
	switch {
	case !ok:
		return fail(name, "no ServerHello in the second handshake"), false
	case !sh.HasExtension(TLSExtPreSharedKey):
		return fail(name, "the second ServerHello has no pre_shared_key extension: a full handshake, not a resumed one"), false
	case !hasTLS(ms, TLSEncryptedExtensions):
		return fail(name, "the second handshake's Handshake packets were not decrypted (no EncryptedExtensions): cannot tell whether a Certificate was sent"), false
	case hasTLS(ms, TLSCertificate):
		return fail(name, "the second handshake carries a Certificate: the session was not resumed"), false
	}
	return Result{}, true
}

func firstTLS(ms []TLSMessage, typ int) (TLSMessage, bool) {
	for _, m := range ms {
		if m.Type == typ {
			return m, true
		}
	}
	return TLSMessage{}, false
}

// MaxZeroRTTClient1RTTPayload is the most 1-RTT payload the client may send in the zerortt test.
const MaxZeroRTTClient1RTTPayload = 5000

// CheckZeroRTT: 2 handshakes; the client's 0-RTT packets carry STREAM data (the requests, not
// just PING/PADDING); the server accepted them (early_data in the second handshake's
// EncryptedExtensions, RFC 8446 §4.2.10 / RFC 9001 §4.6.1); the client's 1-RTT payload (without
// PING/PADDING-only probe packets) is at most MaxZeroRTTClient1RTTPayload.
func CheckZeroRTT(t *Trace) Result {
	const name = "zerortt"
	if r, ok := checkVersionAndCount(name, t, 2); !ok {
		return r
	}
	var zero, one int
	var zeroStream uint64
	opaque, zeroConn := false, -1 // 0-RTT packets tshark could not decrypt; their connection
	for _, p := range t.Filter(func(p *Packet) bool { return p.Dir == ClientToServer }) {
		switch p.Type {
		case Type0RTT:
			zero += p.Payload
			zeroStream += streamBytes(p.Frames)
			opaque, zeroConn = opaque || !p.Decrypted, p.Conn
		case Type1RTT:
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
	if one > MaxZeroRTTClient1RTTPayload {
		return fail(name, "client sent %d B of 1-RTT payload (0-RTT %d B), want <= %d", one, zero, MaxZeroRTTClient1RTTPayload)
	}
	return pass(name, "2 handshakes, %d B 0-RTT payload (%d B STREAM data)%s accepted by the server, %d B client 1-RTT payload", zero, zeroStream, via, one)
}

// requestsOpenedBefore1RTT counts, in connection conn, the client-initiated bidirectional streams
// the server sends STREAM data on while the client never sends their first bytes (offset 0) in
// 1-RTT: those requests travelled in 0-RTT. It stands in for decrypting 0-RTT where the client's
// TLS stack logs no CLIENT_EARLY_TRAFFIC_SECRET (Go's crypto/tls, so every quic-go client).
func requestsOpenedBefore1RTT(t *Trace, conn int) int {
	answered, opened1RTT := map[int64]bool{}, map[int64]bool{}
	for _, p := range t.Filter(func(p *Packet) bool { return p.Conn == conn && p.Type == Type1RTT }) {
		for _, f := range p.Frames {
			if !f.IsStream() || f.StreamID%4 != 0 {
				continue
			}
			if p.Dir == ServerToClient {
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

func streamBytes(fs []Frame) uint64 {
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
func earlyDataAccepted(name string, t *Trace) (Result, bool) {
	hs := t.Handshakes()
	_, by := t.serverTLSByHandshake()
	ee, ok := firstTLS(by[hs[len(hs)-1]], TLSEncryptedExtensions)
	switch {
	case !ok:
		return fail(name, "no EncryptedExtensions in the second handshake (not decrypted?)"), false
	case !ee.HasExtension(TLSExtEarlyData):
		return fail(name, "the server's second EncryptedExtensions has no early_data extension: 0-RTT was rejected"), false
	}
	return Result{}, true
}

// CheckKeyUpdate: 1 handshake, v1; 1-RTT packets with key phase 1 from both sides, and the
// CLIENT initiated the update (it is the side told TESTCASE=keyupdate; the server runs
// "transfer"): its first key phase 1 packet precedes the server's, which is the response RFC
// 9001 §6.2 requires. A server that updates on its own would otherwise pass for a client that
// never does.
func CheckKeyUpdate(t *Trace) Result {
	const name = "keyupdate"
	if r, ok := checkVersionAndCount(name, t, 1); !ok {
		return r
	}
	n := map[Direction]int{}
	first := map[Direction]int{} // frame of each side's first key phase 1 packet
	for _, p := range t.Filter(func(p *Packet) bool { return p.Type == Type1RTT && p.KeyPhase == 1 && p.Decrypted }) {
		if n[p.Dir] == 0 {
			first[p.Dir] = p.Frame
		}
		n[p.Dir]++
	}
	if n[ClientToServer] == 0 || n[ServerToClient] == 0 {
		return fail(name, "key phase 1 packets: %d from the client, %d from the server; want both > 0", n[ClientToServer], n[ServerToClient])
	}
	if r, ok := clientInitiatedKeyUpdate(name, first); !ok {
		return r
	}
	return pass(name, "the client initiated (key phase 1 first in frame %d, the server followed in frame %d); key phase 1 packets: %d from the client, %d from the server",
		first[ClientToServer], first[ServerToClient], n[ClientToServer], n[ServerToClient])
}

// clientInitiatedKeyUpdate: the client's first key phase 1 packet comes before the server's.
func clientInitiatedKeyUpdate(name string, first map[Direction]int) (Result, bool) {
	if first[ServerToClient] < first[ClientToServer] {
		return fail(name, "the server initiated the key update (key phase 1 in frame %d, the client's first in frame %d); the client must", first[ServerToClient], first[ClientToServer]), false
	}
	return Result{}, true
}

// MaxMultiplexingStreamsBidi is the highest initial_max_streams_bidi the multiplexing test allows.
const MaxMultiplexingStreamsBidi = 1000

// CheckMultiplexing: the server's initial_max_streams_bidi is at most 1000 (so the client must
// wait for MAX_STREAMS to open its 1999 streams), and the client never opens a bidirectional
// stream beyond the limit the server has granted so far (RFC 9000 §4.6): the server raised it
// with MAX_STREAMS rather than the client ignoring it.
func CheckMultiplexing(t *Trace) Result {
	const name = "multiplexing"
	if r, ok := checkVersionAndCount(name, t, 1); !ok {
		return r
	}
	var got *uint64
	for _, p := range t.Filter(func(p *Packet) bool { return p.Dir == ServerToClient }) {
		for _, m := range p.TLS {
			if m.Type == TLSEncryptedExtensions && m.InitialMaxStreamsBidi != nil {
				got = m.InitialMaxStreamsBidi
			}
		}
	}
	if got == nil {
		return fail(name, "no initial_max_streams_bidi in the server's transport parameters (not decrypted?)")
	}
	if *got > MaxMultiplexingStreamsBidi {
		return fail(name, "server initial_max_streams_bidi = %d, want <= %d", *got, MaxMultiplexingStreamsBidi)
	}
	opened, limit, r, ok := clientWithinStreamLimit(name, t)
	if !ok {
		return r
	}
	return pass(name, "server initial_max_streams_bidi = %d (<= %d); the client opened %d bidi streams, within the limit (highest granted %d)", *got, MaxMultiplexingStreamsBidi, opened, limit)
}

// clientWithinStreamLimit replays the trace per connection: the limit starts at the server's
// initial_max_streams_bidi and rises with its MAX_STREAMS (bidi) frames; every client-initiated
// bidirectional stream must lie within the limit in force when the server saw it. It returns
// the most streams opened and the highest limit on any connection.
func clientWithinStreamLimit(name string, t *Trace) (opened, limit uint64, r Result, ok bool) {
	lim := map[int]uint64{}
	known := map[int]bool{}
	for _, d := range t.Datagrams {
		for _, p := range d.Packets {
			if p.Dir == ServerToClient {
				for _, m := range p.TLS {
					if m.Type == TLSEncryptedExtensions && m.InitialMaxStreamsBidi != nil && !known[p.Conn] {
						lim[p.Conn], known[p.Conn] = *m.InitialMaxStreamsBidi, true
					}
				}
			}
			for _, f := range p.Frames {
				switch {
				case p.Dir == ServerToClient && f.Type == FrameMaxStreamsBidi && f.MaxStreams > lim[p.Conn]:
					lim[p.Conn] = f.MaxStreams
				case p.Dir == ClientToServer && f.IsStream() && f.StreamID&3 == 0:
					n := uint64(f.StreamID)/4 + 1 // streams up to this one are open (RFC 9000 §2.1)
					if known[p.Conn] && n > lim[p.Conn] {
						return 0, 0, fail(name, "the client opened bidi stream %d (stream #%d) in frame %d while the server's limit was %d", f.StreamID, n, p.Frame, lim[p.Conn]), false
					}
					opened = max(opened, n)
				}
			}
			limit = max(limit, lim[p.Conn])
		}
	}
	return opened, limit, Result{}, true
}

// CheckECN: ECT(0)/ECT(1)-marked datagrams in both directions, no CE, and ACK frames with ECN
// counts from both sides.
func CheckECN(t *Trace) Result {
	const name = "ecn"
	ect := map[Direction]int{}
	ackECN := map[Direction]int{}
	ce := 0
	for _, d := range t.Datagrams {
		switch d.ECN {
		case ECNECT0, ECNECT1:
			ect[d.Dir]++
		case ECNCE:
			ce++
		}
		for _, p := range d.Packets {
			for _, f := range p.Frames {
				if f.Type == FrameAckECN {
					ackECN[d.Dir]++
				}
			}
		}
	}
	switch {
	case ect[ClientToServer] == 0 || ect[ServerToClient] == 0:
		return fail(name, "ECT-marked datagrams: %d client->server, %d server->client; want both > 0", ect[ClientToServer], ect[ServerToClient])
	case ce > 0:
		return fail(name, "%d CE-marked datagrams, want none on this path", ce)
	case ackECN[ClientToServer] == 0 || ackECN[ServerToClient] == 0:
		return fail(name, "ACK frames with ECN counts: %d from the client, %d from the server; want both > 0", ackECN[ClientToServer], ackECN[ServerToClient])
	}
	for _, dir := range []Direction{ClientToServer, ServerToClient} {
		if r, ok := ackECNReportsPeerMarks(name, t, dir); !ok {
			return r
		}
	}
	return pass(name, "ECT marks %d/%d datagrams (c->s/s->c), no CE, ACK_ECN frames %d/%d", ect[ClientToServer], ect[ServerToClient], ackECN[ClientToServer], ackECN[ServerToClient])
}

// ackECNReportsPeerMarks: RFC 9000 §13.4.1, an endpoint counts the ECN codepoints it received;
// the ACK_ECN frames dir sends must count some packet in a codepoint the peer marked with.
// ACK_ECN frames with all-zero counts (ECN read from nowhere) would otherwise pass.
func ackECNReportsPeerMarks(name string, t *Trace, dir Direction) (Result, bool) {
	peerECT0, peerECT1 := false, false
	var ect0, ect1 uint64
	for _, d := range t.Datagrams {
		switch {
		case d.Dir != dir && d.ECN == ECNECT0:
			peerECT0 = true
		case d.Dir != dir && d.ECN == ECNECT1:
			peerECT1 = true
		}
		if d.Dir != dir {
			continue
		}
		for _, p := range d.Packets {
			for _, f := range p.Frames {
				if f.Type == FrameAckECN {
					ect0, ect1 = max(ect0, f.ECT0), max(ect1, f.ECT1)
				}
			}
		}
	}
	if (peerECT0 && ect0 > 0) || (peerECT1 && ect1 > 0) {
		return Result{}, true
	}
	return fail(name, "%s ACK_ECN frames count ECT(0) %d, ECT(1) %d: none of the peer's ECT marks were reported", dir, ect0, ect1), false
}

// AmplificationFactor is the anti-amplification limit (RFC 9000 section 8.1).
const AmplificationFactor = 3

// CheckAmplificationLimit: before the client's first Handshake packet (its address is validated
// from then on), the server sent at most 3x the UDP payload bytes it received.
func CheckAmplificationLimit(t *Trace) Result {
	const name = "amplificationlimit"
	var cb, sb int
	validated := false
	for _, d := range t.Datagrams {
		if d.Dir == ClientToServer {
			for _, p := range d.Packets {
				if p.Type == TypeHandshake {
					validated = true
				}
			}
			if validated {
				break
			}
			cb += d.UDPLen
		} else if d.Dir == ServerToClient {
			sb += d.UDPLen
			if sb > AmplificationFactor*cb {
				return fail(name, "server sent %d B after receiving %d B (frame %d), more than %dx before the client's first Handshake packet", sb, cb, d.Frame, AmplificationFactor)
			}
		}
	}
	if !validated {
		return fail(name, "no client Handshake packet in the trace")
	}
	if r, ok := limitExercised(name, t); !ok {
		return r
	}
	if sb == 0 {
		return fail(name, "no server datagram before the client's first Handshake packet")
	}
	return pass(name, "server sent %d B for %d B received (%.2fx <= %dx) before the client's first Handshake packet", sb, cb, float64(sb)/float64(cb), AmplificationFactor)
}

// limitExercised: the case only tests something when the server's Handshake flight (its
// CRYPTO data, upstream's "used the provided cert chain" check) is larger than 3x the client's
// first datagram, so it cannot all go out before the client's address is validated. Upstream
// asks for 7500 B with its SAN-inflated chain; wirelab's 9-certificate chain is smaller, so the
// bar is the limit itself.
func limitExercised(name string, t *Trace) (Result, bool) {
	first := 0
	for _, d := range t.Datagrams {
		if d.Dir == ClientToServer {
			first = d.UDPLen
			break
		}
	}
	var crypto uint64
	for _, p := range t.Filter(func(p *Packet) bool { return p.Dir == ServerToClient && p.Type == TypeHandshake }) {
		for _, f := range p.Frames {
			if f.Type == FrameCrypto {
				crypto = max(crypto, f.Offset+f.Length)
			}
		}
	}
	if crypto <= uint64(AmplificationFactor*first) {
		return fail(name, "the server's Handshake CRYPTO data is %d B, not more than %dx the client's first datagram (%d B): the limit was never reached (certificate chain not used?)", crypto, AmplificationFactor, first), false
	}
	return Result{}, true
}
