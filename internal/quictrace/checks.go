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
// http3 and the path checks.
var LongHeaderChecks = map[string]bool{
	"handshake": true, "transfer": true, "retry": true, "v2": true, "versionnegotiation": true,
	"chacha20": true, "resumption": true, "multiplexing": true, "longrtt": true,
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
	if t.LongHeadersOnly {
		return pass(name, "1 handshake, server Initials v1")
	}
	var bytes uint64
	for _, p := range t.Filter(func(p *Packet) bool { return p.Dir == ServerToClient && p.Type == Type1RTT }) {
		for _, f := range p.Frames {
			if f.IsStream() {
				bytes += f.Length
			}
		}
	}
	return pass(name, "1 handshake, server Initials v1, %d server STREAM bytes", bytes)
}

// CheckRetry: a Retry packet with a token, a later client Initial carrying that token, 1 handshake.
func CheckRetry(t *Trace) Result {
	const name = "retry"
	pk := t.Packets()
	ri := -1
	for i, p := range pk {
		if p.Type == TypeRetry && p.Dir == ServerToClient {
			ri = i
			break
		}
	}
	if ri < 0 {
		return fail(name, "no Retry packet from the server")
	}
	tok := pk[ri].Token
	if tok == "" {
		return fail(name, "the Retry packet carries no token")
	}
	found := false
	for _, p := range pk[ri+1:] {
		if p.Dir == ClientToServer && p.Type == TypeInitial && p.Token == tok {
			found = true
			break
		}
	}
	if !found {
		return fail(name, "no client Initial after the Retry carries its %d-byte token", len(tok)/2)
	}
	if r, ok := checkVersionAndCount(name, t, 1); !ok {
		return r
	}
	return pass(name, "Retry with a %d-byte token, echoed in a later client Initial, 1 handshake", len(tok)/2)
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
	return pass(name, "%d ClientHello(s) offer only 0x1303", len(chs))
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

// CheckResumption: 2 handshakes, the server sends a Certificate only in the first.
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
	if hasTLS(by[hs[1]], TLSCertificate) {
		return fail(name, "the second handshake carries a Certificate: the session was not resumed")
	}
	return pass(name, "2 handshakes, Certificate only in the first")
}

// MaxZeroRTTClient1RTTPayload is the most 1-RTT payload the client may send in the zerortt test.
const MaxZeroRTTClient1RTTPayload = 5000

// CheckZeroRTT: 2 handshakes, 0-RTT packets with payload, the client's 1-RTT payload (without
// PING/PADDING-only probe packets) at most MaxZeroRTTClient1RTTPayload.
func CheckZeroRTT(t *Trace) Result {
	const name = "zerortt"
	if r, ok := checkVersionAndCount(name, t, 2); !ok {
		return r
	}
	var zero, one int
	for _, p := range t.Filter(func(p *Packet) bool { return p.Dir == ClientToServer }) {
		switch p.Type {
		case Type0RTT:
			zero += p.Payload
		case Type1RTT:
			if !p.ProbeOnly() { // PMTU probes carry no data
				one += p.Payload
			}
		}
	}
	if zero == 0 {
		return fail(name, "no 0-RTT payload from the client")
	}
	if one > MaxZeroRTTClient1RTTPayload {
		return fail(name, "client sent %d B of 1-RTT payload (0-RTT %d B), want <= %d", one, zero, MaxZeroRTTClient1RTTPayload)
	}
	return pass(name, "2 handshakes, %d B 0-RTT payload, %d B client 1-RTT payload", zero, one)
}

// CheckKeyUpdate: 1-RTT packets with key phase 1 from both sides (and 1 handshake, v1).
func CheckKeyUpdate(t *Trace) Result {
	const name = "keyupdate"
	if r, ok := checkVersionAndCount(name, t, 1); !ok {
		return r
	}
	n := map[Direction]int{}
	for _, p := range t.Filter(func(p *Packet) bool { return p.Type == Type1RTT && p.KeyPhase == 1 && p.Decrypted }) {
		n[p.Dir]++
	}
	if n[ClientToServer] == 0 || n[ServerToClient] == 0 {
		return fail(name, "key phase 1 packets: %d from the client, %d from the server; want both > 0", n[ClientToServer], n[ServerToClient])
	}
	return pass(name, "key phase 1 packets: %d from the client, %d from the server", n[ClientToServer], n[ServerToClient])
}

// MaxMultiplexingStreamsBidi is the highest initial_max_streams_bidi the multiplexing test allows.
const MaxMultiplexingStreamsBidi = 1000

// CheckMultiplexing: the server's initial_max_streams_bidi is at most 1000 (so the client must
// wait for MAX_STREAMS to open its 1999 streams).
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
	return pass(name, "server initial_max_streams_bidi = %d (<= %d)", *got, MaxMultiplexingStreamsBidi)
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
	return pass(name, "ECT marks %d/%d datagrams (c->s/s->c), no CE, ACK_ECN frames %d/%d", ect[ClientToServer], ect[ServerToClient], ackECN[ClientToServer], ackECN[ServerToClient])
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
	if sb == 0 {
		return fail(name, "no server datagram before the client's first Handshake packet")
	}
	return pass(name, "server sent %d B for %d B received (%.2fx <= %dx) before the client's first Handshake packet", sb, cb, float64(sb)/float64(cb), AmplificationFactor)
}
