package quicfuzz

import (
	"bytes"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/quicvarint"
)

// fabricated is a server Initial (ACK of packet 0, then a CRYPTO frame standing in for the
// ServerHello, then closes) protected with the server keys of dcid, as a server would send it.
func fabricated(dcid []byte, crypto bool, closes ...Close) []byte {
	payload := []byte{ftAck, 0, 0, 0, 0}
	if crypto {
		payload = append(payload, ftCrypto, 0, 4, 0x02, 0, 0, 0)
	}
	for _, c := range closes {
		payload = quicvarint.Append(payload, c.Type)
		payload = quicvarint.Append(payload, c.Code)
		if c.Type == ftConnectionClose {
			payload = quicvarint.Append(payload, c.FrameType)
		}
		payload = quicvarint.Append(payload, uint64(len(c.Reason)))
		payload = append(payload, c.Reason...)
	}
	return (&Initial{DCID: clientSCID, SCID: []byte{1, 2, 3, 4, 5, 6, 7, 8}, PNLen: 1, Payload: payload, PadTo: 1200}).Seal(NewInitialKeys(dcid, true))
}

// The oracle of each target fails on replies that accept what they must reject, and passes
// the right ones: checked on fabricated server replies, so no server is needed.
func TestOracleCatches(t *testing.T) {
	ch := clientHello(t)
	dcid := []byte{9, 9, 9, 9, 9, 9, 9, 9}
	reply := func(d []byte) *Reply {
		r := &Reply{}
		r.Add(d, NewInitialKeys(dcid, true))
		return r
	}
	pv := Close{Type: ftConnectionClose, Code: ProtocolViolation, FrameType: ftNewToken}
	fe := Close{Type: ftConnectionClose, Code: FrameEncodingError, FrameType: ftNewToken}
	noErr := Close{Type: ftConnectionClose, Code: NoError}
	app := Close{Type: ftConnectionCloseApp, Code: ProtocolViolation}
	tpe := Close{Type: ftConnectionClose, Code: TransportParameterError}
	internalTP := Close{Type: ftConnectionClose, Code: InternalError, Reason: "TRANSPORT_PARAMETER_ERROR (local): unexpected EOF"}
	internal := Close{Type: ftConnectionClose, Code: InternalError, Reason: "oops"}
	for _, tgt := range []struct {
		name string
		tol  Tolerance
	}{{"FuzzQuicGoInitial", Tolerance{FrameEncodingForForbidden: findingF1, InternalForTransportParameter: findingF3}},
		{"FuzzXNetQuicInitial", Tolerance{NoDatagramSupport: true, FrameEncodingForLongType: findingF2}}} {
		for _, c := range []struct {
			name  string
			input []byte
			reply []byte
			ok    bool
		}{
			{"forbidden NEW_TOKEN, server proceeds", seed(CHFirst, fPing, fNewToken), fabricated(dcid, true), false},
			{"forbidden NEW_TOKEN, server closes NO_ERROR", seed(CHFirst, fPing, fNewToken), fabricated(dcid, false, noErr), false},
			{"forbidden NEW_TOKEN, server closes with 0x1d", seed(CHFirst, fPing, fNewToken), fabricated(dcid, false, app), false},
			{"forbidden NEW_TOKEN, PROTOCOL_VIOLATION", seed(CHFirst, fPing, fNewToken), fabricated(dcid, false, pv), true},
			{"forbidden NEW_TOKEN, handshake then PROTOCOL_VIOLATION", seed(CHFirst, fPing, fNewToken), fabricated(dcid, true, pv), true},
			{"forbidden NEW_TOKEN, dropped", seed(CHFirst, fPing, fNewToken), nil, true},
			{"forbidden NEW_TOKEN, FRAME_ENCODING_ERROR", seed(CHFirst, fPing, fNewToken), fabricated(dcid, false, fe), tgt.tol.FrameEncodingForForbidden != ""},
			{"unknown type, server proceeds", seed(CHFirst, fUnknown), fabricated(dcid, true), false},
			{"unknown type, PROTOCOL_VIOLATION", seed(CHFirst, fUnknown), fabricated(dcid, false, pv), false},
			{"unknown type, FRAME_ENCODING_ERROR", seed(CHFirst, fUnknown), fabricated(dcid, false, fe), true},
			{"DATAGRAM, FRAME_ENCODING_ERROR", seed(CHFirst, fDatagram), fabricated(dcid, false, fe), true},
			{"valid, server closes", seed(CHFirst, fPing), fabricated(dcid, false, pv), false},
			{"valid, no answer", seed(CHFirst, fPing), nil, false},
			{"valid, handshake", seed(CHFirst, fPing), fabricated(dcid, true), true},
			{"ACK, PROTOCOL_VIOLATION", seed(CHFirst, fAckRanges), fabricated(dcid, false, pv), true},
			{"ACK, NO_ERROR close", seed(CHFirst, fAckRanges), fabricated(dcid, false, noErr), false},
			{"ACK then NEW_TOKEN, ACK's PROTOCOL_VIOLATION", seed(CHFirst, fAckRanges, fNewToken), fabricated(dcid, false, pv), true},
			{"client CONNECTION_CLOSE, server proceeds", seed(CHFirst, fClose), fabricated(dcid, true), false},
			{"client CONNECTION_CLOSE, server closes", seed(CHFirst, fClose), fabricated(dcid, false, noErr), true},
			{"client CONNECTION_CLOSE, silence", seed(CHFirst, fClose), nil, true},
			{"2-byte PING, handshake", seed(CHFirst, fLongPing), fabricated(dcid, true), true},
			{"2-byte PING, PROTOCOL_VIOLATION", seed(CHFirst, fLongPing), fabricated(dcid, false, pv), true},
			{"2-byte PING, FRAME_ENCODING_ERROR", seed(CHFirst, fLongPing), fabricated(dcid, false, fe), tgt.tol.FrameEncodingForLongType != ""},
			{"4-byte HANDSHAKE_DONE, server proceeds", seed(CHFirst, fLongHSDone), fabricated(dcid, true), false},
			{"damaged ClientHello, TRANSPORT_PARAMETER_ERROR", damagedTP(t), fabricated(dcid, false, tpe), true},
			{"damaged ClientHello, INTERNAL_ERROR naming it", damagedTP(t), fabricated(dcid, false, internalTP), tgt.tol.InternalForTransportParameter != ""},
			{"damaged ClientHello, other INTERNAL_ERROR", damagedTP(t), fabricated(dcid, false, internal), false},
			{"valid, INTERNAL_ERROR naming TRANSPORT_PARAMETER_ERROR", seed(CHFirst, fPing), fabricated(dcid, false, internalTP), false},
			{"damaged ClientHello, NO_ERROR", damagedTP(t), fabricated(dcid, false, noErr), false},
			{"damaged ClientHello then NEW_TOKEN, server proceeds", append(damagedTP(t), fNewToken...), fabricated(dcid, true), false},
			{"garbage reply", seed(CHFirst, fPing), []byte{0xc0, 0, 0, 0, 1, 8, 1, 2, 3}, false},
		} {
			r := &Reply{}
			if c.reply != nil {
				r = reply(c.reply)
			}
			err := Check(Expectation(Decode(c.input, ch).Frames), r, tgt.tol)
			if (err == nil) != c.ok {
				t.Errorf("%s: %s: Check = %v, want ok=%v", tgt.name, c.name, err, c.ok)
			}
		}
	}
}

// The same against the live servers, with a deliberately wrong expectation: the check must
// report a server that does what it should when the oracle expects the opposite.
func TestLiveOracleCatches(t *testing.T) {
	for _, s := range []*server{quicGoServer(t), xnetServer(t)} {
		cause := &Frame{Name: "NEW_TOKEN", Type: ftNewToken, Class: Forbidden}
		_, r, _ := s.exchange(t, seed(CHFirst, fPing), &Expect{Kind: Reject, Codes: []uint64{ProtocolViolation}, Cause: cause})
		if err := Check(Expect{Kind: Reject, Codes: []uint64{ProtocolViolation}, Cause: cause}, r, s.tol); err == nil || !r.Crypto {
			t.Errorf("%s: valid packet judged as if it held NEW_TOKEN: Check = %v, reply %+v", s.name, err, *r)
		}
		_, r, _ = s.exchange(t, seed(CHFirst, fPing, fHSDone), &Expect{Kind: Proceed})
		if err := Check(Expect{Kind: Proceed}, r, s.tol); err == nil || len(r.Closes) == 0 {
			t.Errorf("%s: HANDSHAKE_DONE judged as valid: Check = %v, reply %+v", s.name, err, *r)
		}
	}
}

// Each forbidden frame type, after a valid ClientHello: what each server closes with. x/net/quic
// follows RFC 9000 §12.4 (PROTOCOL_VIOLATION); quic-go sends FRAME_ENCODING_ERROR (finding F1).
// When this fails for quic-go with PROTOCOL_VIOLATION, upstream fixed F1: drop its Tolerance.
func TestQuicGoFindingF1(t *testing.T) {
	for _, fr := range [][]byte{fNewToken, fStreamLen, fStreamOpen, fMaxData, fMaxStreamDat, fMaxStreams, fDataBlocked,
		fStreamDBlk, fStreamsBlk, fResetStream, fStopSending, fNewCID, fRetireCID, fPathChal, fPathResp, fCloseApp, fHSDone, fDatagram} {
		for _, s := range []*server{quicGoServer(t), xnetServer(t)} {
			exp, r, frames := s.exchange(t, seed(CHFirst, fPing, fr), nil)
			if exp.Kind != Reject {
				t.Fatalf("%s: expectation %v", frames, exp.Kind)
			}
			want := uint64(ProtocolViolation)
			if s == quicGoSrv || exp.Cause.Class == ForbiddenExt { // x/net: DATAGRAM is an unknown type
				want = FrameEncodingError
			}
			if len(r.Closes) != 1 || r.Closes[0].Code != want {
				t.Errorf("%s: %s: closes %+v, want code 0x%x", s.name, frames, r.Closes, want)
			} else {
				t.Logf("%s: %-40s -> 0x%02x %q", s.name, strings.TrimPrefix(frames, "CRYPTO(ClientHello) PING "), r.Closes[0].Code, r.Closes[0].Reason)
			}
		}
	}
}

// Observation O1 (not a frame-parsing finding; see exchange): x/net/quic v0.62.0's NewEndpoint
// over a net.PacketConn that is not a *net.UDPConn drops every packet whose peer address
// ReadFrom reports in net.IP's 16-byte IPv4 form (what net.IPv4 returns): the connection
// stores the unmapped address and conn_recv.go handleDatagram then sees a different peer. A
// valid Initial from 10.255.0.1 as a 16-byte IP gets no answer, the same from a 4-byte IP does.
// When this fails, upstream fixed it.
func TestXNetMappedPeerDropped(t *testing.T) {
	s := xnetServer(t)
	ch := clientHello(t)
	for _, mapped := range []bool{true, false} {
		ip := net.IPv4(10, 255, 0, byte(2+len(t.Name())%200))
		if !mapped {
			ip = ip.To4()
		}
		addr := &net.UDPAddr{IP: ip, Port: map[bool]int{true: 7001, false: 7002}[mapped]}
		replies := s.pc.Subscribe(addr)
		dcid := []byte{0xee, 0xee, 0xee, 0xee, 0, 0, 0, map[bool]byte{true: 1, false: 2}[mapped]}
		pkt := Decode(seed(CHFirst, fPing), ch)
		s.pc.Deliver((&Initial{DCID: dcid, SCID: clientSCID, PNLen: 1, Payload: pkt.Payload(), PadTo: 1200}).Seal(NewInitialKeys(dcid, false)), addr)
		select {
		case <-replies:
			if mapped {
				t.Error("x/net/quic answered a peer given as a 16-byte IPv4 address: O1 is fixed, update the comment in exchange")
			}
		case <-time.After(300 * time.Millisecond):
			if !mapped {
				t.Error("no answer to a valid Initial from a 4-byte IPv4 address")
			}
		}
		s.pc.Unsubscribe(addr)
	}
}

// Frame types in longer encodings than needed: quic-go takes them for their type (a PING
// passes, a HANDSHAKE_DONE is refused as not permitted, F1's code); x/net/quic closes with
// FRAME_ENCODING_ERROR either way (finding F2). When x/net's line fails, upstream changed it.
func TestXNetFindingF2(t *testing.T) {
	for _, c := range []struct {
		input        []byte
		quicGo, xnet uint64 // expected close code; noClose: the handshake goes on
	}{
		{seed(CHFirst, fLongPing), noClose, FrameEncodingError},
		{seed(CHFirst, []byte{24, 1}), noClose, FrameEncodingError}, // PING as 0x80 0 0 0x01
		{seed(CHFirst, []byte{24, 2}), noClose, FrameEncodingError}, // as 8 bytes
		{seed(CHFirst, fLongHSDone), FrameEncodingError, FrameEncodingError},
	} {
		for _, s := range []*server{quicGoServer(t), xnetServer(t)} {
			want := c.quicGo
			if s == xnetSrv {
				want = c.xnet
			}
			_, r, frames := s.exchange(t, c.input, nil)
			switch {
			case want == noClose && (len(r.Closes) != 0 || !r.Crypto):
				t.Errorf("%s: %s: want the handshake, got %+v", s.name, frames, *r)
			case want != noClose && (len(r.Closes) != 1 || r.Closes[0].Code != want):
				t.Errorf("%s: %s: want close 0x%x, got %+v", s.name, frames, want, *r)
			default:
				t.Logf("%s: %s: %+v", s.name, frames, r.Closes)
			}
		}
	}
}

const noClose = 1 << 62

// damagedTP is an input whose ClientHello has the length of its initial_source_connection_id
// transport parameter XORed with 0xff (8 -> 0xf7, an 8-byte varint running past the end),
// followed by a PING.
func damagedTP(t *testing.T) []byte {
	ch := clientHello(t)
	i := bytes.Index(ch, append([]byte{0x0f, byte(len(clientSCID))}, clientSCID...))
	if i < 0 {
		t.Fatal("no initial_source_connection_id in the ClientHello")
	}
	pos := i + 1
	return []byte{CHDamaged, 0, 0x40 | byte(pos>>8), byte(pos), 0xff, 1}
}

// Finding F3: badly formatted client transport parameters. x/net/quic closes with
// TRANSPORT_PARAMETER_ERROR; quic-go with INTERNAL_ERROR whose reason names it. When quic-go's
// line fails with 0x08, upstream fixed F3: drop its Tolerance.
func TestQuicGoFindingF3(t *testing.T) {
	in := damagedTP(t)
	t.Logf("input %x", in)
	for _, s := range []*server{quicGoServer(t), xnetServer(t)} {
		want := uint64(TransportParameterError)
		if s == quicGoSrv {
			want = InternalError
		}
		_, r, frames := s.exchange(t, in, nil)
		if len(r.Closes) != 1 || r.Closes[0].Code != want {
			t.Errorf("%s: %s: want close 0x%x, got %+v", s.name, frames, want, *r)
			continue
		}
		if s == quicGoSrv && !strings.HasPrefix(r.Closes[0].Reason, "TRANSPORT_PARAMETER_ERROR") {
			t.Errorf("quic-go: reason %q", r.Closes[0].Reason)
		}
		t.Logf("%s: %+v", s.name, r.Closes[0])
	}
}
