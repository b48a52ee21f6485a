package quicfuzz

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/wirelab/wirelab/internal/quicvarint"
)

// Transport error codes (RFC 9000 §20.1).
const (
	NoError                 = 0x00
	InternalError           = 0x01
	FrameEncodingError      = 0x07
	TransportParameterError = 0x08
	ProtocolViolation       = 0x0a
	CryptoBufferExceeded    = 0x0d
)

// Frame types (RFC 9000 §19, Table 3; RFC 9221 for DATAGRAM).
const (
	ftPadding            = 0x00
	ftPing               = 0x01
	ftAck                = 0x02
	ftAckECN             = 0x03
	ftResetStream        = 0x04
	ftStopSending        = 0x05
	ftCrypto             = 0x06
	ftNewToken           = 0x07
	ftStream             = 0x08 // ..0x0f
	ftMaxData            = 0x10
	ftMaxStreamData      = 0x11
	ftMaxStreamsBidi     = 0x12
	ftDataBlocked        = 0x14
	ftStreamDataBlocked  = 0x15
	ftStreamsBlockedBidi = 0x16
	ftNewConnectionID    = 0x18
	ftRetireConnectionID = 0x19
	ftPathChallenge      = 0x1a
	ftPathResponse       = 0x1b
	ftConnectionClose    = 0x1c
	ftConnectionCloseApp = 0x1d
	ftHandshakeDone      = 0x1e
	ftDatagram           = 0x30 // 0x31 with Length
)

// Class says what a frame in a client's first Initial packet obliges the server to do.
type Class int

const (
	// Benign: permitted in Initial packets and harmless here (PADDING, PING, the ClientHello).
	Benign Class = iota
	// MayFail: permitted, but its content may be an error the server is free to detect (an
	// ACK of packets the server never sent, RFC 9000 §13.1 "SHOULD"; CRYPTO data beyond the
	// ClientHello). The server either goes on or closes with one of the frame's codes.
	MayFail
	// Forbidden: a well-formed RFC 9000 frame of a type Table 3 does not permit in Initial
	// packets. §12.4: "MUST treat receipt of a frame in a packet type that is not permitted as
	// a connection error of type PROTOCOL_VIOLATION".
	Forbidden
	// ForbiddenExt: an extension frame not permitted in Initial packets (DATAGRAM, RFC 9221
	// §4). PROTOCOL_VIOLATION from a server that implements the extension; one that does not
	// sees an unknown frame type, FRAME_ENCODING_ERROR.
	ForbiddenExt
	// UnknownType: a frame type no RFC or extension here defines. §12.4: "MUST treat the
	// receipt of a frame of unknown type as a connection error of type FRAME_ENCODING_ERROR".
	UnknownType
	// ClientClose: the client's CONNECTION_CLOSE (type 0x1c, permitted in Initial packets).
	// The server enters the draining state, in which it "MUST NOT send any packets" but for a
	// single CONNECTION_CLOSE (§10.2.2): it must not answer with its handshake.
	ClientClose
	// Unchecked: raw bytes: nothing is required of the server after them (only that it does
	// not crash).
	Unchecked
)

// Frame is one encoded frame with what it obliges the server to do.
type Frame struct {
	Name  string
	Type  uint64
	Class Class
	Codes []uint64 // MayFail: error codes the server may close with; CryptoError: TLS alerts too
	// CryptoError: the frame may also end in CRYPTO_ERROR (0x0100-0x01ff, RFC 9001 §4.8).
	CryptoError bool
	// MaySilence: the frame may leave the server waiting for more handshake data, answering
	// with at most an ACK: CRYPTO data that arrives before the ClientHello's own bytes at the
	// same offsets is kept, the ClientHello is then garbled or incomplete (RFC 9000 §19.6,
	// §7.5: data is delivered in order; how overlaps resolve is the receiver's choice).
	MaySilence bool
	// LongType: the frame type is encoded in more bytes than needed. §12.4: "a frame type MUST
	// use the shortest possible encoding ... An endpoint MAY treat the receipt of a frame type
	// that uses a longer encoding than necessary as a connection error of type
	// PROTOCOL_VIOLATION": the server accepts the frame as its type or closes with 0x0a.
	LongType bool
	Bytes    []byte
}

// Input decodes fuzz input bytes. Every read succeeds: past the end it yields zeros, so any
// input is a packet and early bytes keep their meaning when later ones mutate.
type Input struct{ b []byte }

func (in *Input) Len() int { return len(in.b) }

func (in *Input) Byte() byte {
	if len(in.b) == 0 {
		return 0
	}
	c := in.b[0]
	in.b = in.b[1:]
	return c
}

func (in *Input) Bytes(n int) []byte {
	out := make([]byte, n)
	k := copy(out, in.b)
	in.b = in.b[k:]
	return out
}

// Val reads a number whose first byte's top two bits give its size class, like a varint:
// 6, 14, 30 or 62 bits.
func (in *Input) Val() uint64 {
	c := in.Byte()
	v := uint64(c & 0x3f)
	for i := 0; i < (1<<(c>>6))-1; i++ {
		v = v<<8 | uint64(in.Byte())
	}
	return v
}

// ClientHello modes (low two bits of the first input byte).
const (
	CHFirst   = 0 // the ClientHello in one CRYPTO frame before the fuzzed frames
	CHSplit   = 1 // in two CRYPTO frames, the second half first, around the fuzzed frames
	CHLast    = 2 // after the fuzzed frames
	CHDamaged = 3 // one byte of it XORed: a TLS or transport parameter error, incomplete data, or nothing
)

// Packet is a decoded fuzz input: header choices and the payload's frames in wire order.
type Packet struct {
	DCIDLen int
	Token   []byte
	PN      uint64
	PNLen   int
	Frames  []Frame
}

// Payload is the frames' bytes.
func (p *Packet) Payload() []byte {
	var b []byte
	for _, f := range p.Frames {
		b = append(b, f.Bytes...)
	}
	return b
}

// MaxPayload bounds the frames so that the packet, header and tag included, stays at most
// 1200 bytes, the size the server reads whole.
const MaxPayload = 1200 - (1 + 4 + 1 + 20 + 1 + 20 + 2 + 2 + 4 + 16)

// Decode turns fuzz input into a client's first Initial packet around the ClientHello ch.
//
// Layout: byte 0: bits 0-1 ClientHello mode, bits 2-3 DCID length 8/12/16/20, bit 4 token
// present, bits 5-6 packet number length - 1; byte 1: packet number; if a token: its length
// (byte % 64) and bytes; for CHSplit the split point, for CHDamaged position and XOR (Val,
// Byte); then frames until the input ends: a selector byte (kind = selector % nKinds) and the
// kind's fields (numbers through Val, so each field's size is local to its bytes).
func Decode(data []byte, ch []byte) *Packet {
	in := &Input{data}
	h := in.Byte()
	p := &Packet{DCIDLen: 8 + 4*int(h>>2&3), PNLen: 1 + int(h>>5&3), PN: uint64(in.Byte())}
	if h&0x10 != 0 {
		p.Token = in.Bytes(int(in.Byte() % 64))
	}
	mode := h & 3
	chFrame := func(name string, off uint64, data []byte, class Class) Frame {
		b := quicvarint.Append([]byte{ftCrypto}, off)
		b = quicvarint.Append(b, uint64(len(data)))
		return Frame{Name: name, Type: ftCrypto, Class: class, Bytes: append(b, data...)}
	}
	var head, tail []Frame
	switch mode {
	case CHFirst:
		head = []Frame{chFrame("CRYPTO(ClientHello)", 0, ch, Benign)}
	case CHLast:
		tail = []Frame{chFrame("CRYPTO(ClientHello)", 0, ch, Benign)}
	case CHSplit:
		at := int(in.Val() % uint64(len(ch)))
		head = []Frame{chFrame("CRYPTO(ClientHello 2nd part)", uint64(at), ch[at:], Benign)}
		tail = []Frame{chFrame("CRYPTO(ClientHello 1st part)", 0, ch[:at], Benign)}
	case CHDamaged:
		bad := slices.Clone(ch)
		bad[in.Val()%uint64(len(bad))] ^= in.Byte() | 1
		// A TLS alert, TRANSPORT_PARAMETER_ERROR (a damaged quic_transport_parameters
		// extension, or an initial_source_connection_id that no longer matches, §7.3),
		// CRYPTO_BUFFER_EXCEEDED or waiting for more data (a message length grown), or no
		// harm at all; the frames after it are still checked.
		f := chFrame("CRYPTO(damaged ClientHello)", 0, bad, MayFail)
		f.Codes, f.CryptoError, f.MaySilence = []uint64{TransportParameterError, CryptoBufferExceeded}, true, true
		head = []Frame{f}
	}
	size := 0
	for _, f := range append(head, tail...) {
		size += len(f.Bytes)
	}
	p.Frames = head
	for in.Len() > 0 {
		f, open := nextFrame(in)
		if size+len(f.Bytes) > MaxPayload-len(p.Token) {
			break
		}
		size += len(f.Bytes)
		if open { // the frame runs to the end of the packet: the ClientHello goes before it
			p.Frames = append(append(p.Frames, tail...), f)
			return p
		}
		p.Frames = append(p.Frames, f)
	}
	p.Frames = append(p.Frames, tail...)
	return p
}

const nKinds = 25

// nextFrame encodes one frame from the input; open is true when the frame has no Length and
// extends to the end of the packet.
func nextFrame(in *Input) (f Frame, open bool) {
	v := in.Val
	forbidden := func(name string, typ uint64, fields ...uint64) Frame {
		b := quicvarint.Append(nil, typ)
		for _, x := range fields {
			b = quicvarint.Append(b, x)
		}
		return Frame{Name: name, Type: typ, Class: Forbidden, Bytes: b}
	}
	lim := func(x, max uint64) uint64 { return x % (max + 1) }
	const maxVarint = 1<<62 - 1
	switch in.Byte() % nKinds {
	case 0:
		return Frame{Name: "PADDING", Type: ftPadding, Class: Benign, Bytes: make([]byte, 1+in.Byte()%8)}, false
	case 1:
		return Frame{Name: "PING", Type: ftPing, Class: Benign, Bytes: []byte{ftPing}}, false
	case 2:
		flags := in.Byte()
		typ := uint64(ftAck + flags&1)
		b := quicvarint.Append([]byte{byte(typ)}, v()) // Largest Acknowledged
		b = quicvarint.Append(b, v())                  // ACK Delay
		n := uint64(flags >> 1 & 3)
		b = quicvarint.Append(b, n)
		b = quicvarint.Append(b, v()) // First ACK Range
		for i := uint64(0); i < 2*n; i++ {
			b = quicvarint.Append(b, v()) // Gap, ACK Range Length
		}
		name := "ACK"
		if typ == ftAckECN {
			name = "ACK_ECN"
			b = quicvarint.Append(quicvarint.Append(quicvarint.Append(b, v()), v()), v()) // ECT0, ECT1, ECN-CE
		}
		// Any ACK in the client's first Initial acknowledges packets the server never sent
		// (§13.1: SHOULD be PROTOCOL_VIOLATION); ranges below zero are FRAME_ENCODING_ERROR
		// (§19.3.1).
		return Frame{Name: name, Type: typ, Class: MayFail, Codes: []uint64{ProtocolViolation, FrameEncodingError}, Bytes: b}, false
	case 3:
		off := v()
		data := in.Bytes(int(in.Byte() % 32))
		b := quicvarint.Append(quicvarint.Append([]byte{ftCrypto}, off), uint64(len(data)))
		// Data past the ClientHello: buffered, CRYPTO_BUFFER_EXCEEDED (§7.5), a TLS error, or
		// FRAME_ENCODING_ERROR when offset+length exceeds 2^62-1 (§19.6); a server MAY treat
		// data that differs from what it already has as PROTOCOL_VIOLATION (§2.2).
		return Frame{Name: "CRYPTO(extra)", Type: ftCrypto, Class: MayFail, CryptoError: true, MaySilence: true,
			Codes: []uint64{CryptoBufferExceeded, FrameEncodingError, ProtocolViolation}, Bytes: append(b, data...)}, false
	case 4:
		tok := in.Bytes(1 + int(in.Byte()%32)) // an empty token is malformed (§19.7)
		f := forbidden("NEW_TOKEN", ftNewToken, uint64(len(tok)))
		f.Bytes = append(f.Bytes, tok...)
		return f, false
	case 5:
		flags := in.Byte() & 7 // OFF 0x04, LEN 0x02, FIN 0x01
		typ := uint64(ftStream) | uint64(flags)
		b := quicvarint.Append(nil, typ)
		b = quicvarint.Append(b, v()) // Stream ID
		data := in.Bytes(int(in.Byte() % 32))
		if flags&4 != 0 {
			b = quicvarint.Append(b, lim(v(), maxVarint-64)) // Offset; offset+length stays < 2^62
		}
		if flags&2 != 0 {
			b = quicvarint.Append(b, uint64(len(data)))
		}
		return Frame{Name: fmt.Sprintf("STREAM(0x%02x)", typ), Type: typ, Class: Forbidden, Bytes: append(b, data...)}, flags&2 == 0
	case 6:
		return forbidden("MAX_DATA", ftMaxData, v()), false
	case 7:
		return forbidden("MAX_STREAM_DATA", ftMaxStreamData, v(), v()), false
	case 8:
		return forbidden("MAX_STREAMS", ftMaxStreamsBidi+uint64(in.Byte()&1), lim(v(), 1<<60)), false
	case 9:
		return forbidden("DATA_BLOCKED", ftDataBlocked, v()), false
	case 10:
		return forbidden("STREAM_DATA_BLOCKED", ftStreamDataBlocked, v(), v()), false
	case 11:
		return forbidden("STREAMS_BLOCKED", ftStreamsBlockedBidi+uint64(in.Byte()&1), lim(v(), 1<<60)), false
	case 12:
		return forbidden("RESET_STREAM", ftResetStream, v(), v(), v()), false
	case 13:
		return forbidden("STOP_SENDING", ftStopSending, v(), v()), false
	case 14:
		seq := v()
		f := forbidden("NEW_CONNECTION_ID", ftNewConnectionID, seq, lim(v(), seq))
		cid := in.Bytes(1 + int(in.Byte()%20))
		f.Bytes = append(append(append(f.Bytes, byte(len(cid))), cid...), in.Bytes(16)...)
		return f, false
	case 15:
		return forbidden("RETIRE_CONNECTION_ID", ftRetireConnectionID, v()), false
	case 16:
		f := forbidden("PATH_CHALLENGE", ftPathChallenge)
		f.Bytes = append(f.Bytes, in.Bytes(8)...)
		return f, false
	case 17:
		f := forbidden("PATH_RESPONSE", ftPathResponse)
		f.Bytes = append(f.Bytes, in.Bytes(8)...)
		return f, false
	case 18:
		b := quicvarint.Append(quicvarint.Append([]byte{ftConnectionClose}, v()), v()) // Error Code, Frame Type
		reason := in.Bytes(int(in.Byte() % 16))
		b = append(quicvarint.Append(b, uint64(len(reason))), reason...)
		return Frame{Name: "CONNECTION_CLOSE", Type: ftConnectionClose, Class: ClientClose, Bytes: b}, false
	case 19:
		f := forbidden("CONNECTION_CLOSE(application)", ftConnectionCloseApp, v())
		reason := in.Bytes(int(in.Byte() % 16))
		f.Bytes = append(quicvarint.Append(f.Bytes, uint64(len(reason))), reason...)
		return f, false
	case 20:
		return forbidden("HANDSHAKE_DONE", ftHandshakeDone), false
	case 21:
		withLen := in.Byte()&1 != 0
		data := in.Bytes(int(in.Byte() % 32))
		b := []byte{ftDatagram}
		if withLen {
			b = quicvarint.Append([]byte{ftDatagram + 1}, uint64(len(data)))
		}
		return Frame{Name: "DATAGRAM", Type: uint64(b[0]), Class: ForbiddenExt, Bytes: append(b, data...)}, !withLen
	case 22:
		// Types from 0x20 up, skipping DATAGRAM and extension types a library here may know
		// (RESET_STREAM_AT 0x24, ACK_FREQUENCY 0xaf; IMMEDIATE_ACK 0x1f is below the range).
		typ := 0x20 + v()%(1<<62-0x20)
		for typ == 0x24 || typ == 0x30 || typ == 0x31 || typ == 0xaf {
			typ++
		}
		b := quicvarint.Append(nil, typ)
		return Frame{Name: fmt.Sprintf("unknown(0x%x)", typ), Type: typ, Class: UnknownType,
			Bytes: append(b, in.Bytes(int(in.Byte()%16))...)}, false
	case 23:
		return Frame{Name: "raw", Class: Unchecked, Bytes: in.Bytes(int(in.Byte() % 64))}, false
	default: // 24: PING (permitted) or HANDSHAKE_DONE (not), neither with fields, in a 2-, 4- or 8-byte type
		sel := in.Byte()
		n := []int{2, 4, 8}[sel%3]
		b := make([]byte, n)
		b[0] = []byte{0x40, 0x80, 0xc0}[sel%3] // varint length prefix, value bits zero
		if sel/3%2 == 0 {
			b[n-1] = ftPing
			return Frame{Name: fmt.Sprintf("PING(%d-byte type)", n), Type: ftPing, Class: MayFail, LongType: true,
				Codes: []uint64{ProtocolViolation}, Bytes: b}, false
		}
		b[n-1] = ftHandshakeDone
		return Frame{Name: fmt.Sprintf("HANDSHAKE_DONE(%d-byte type)", n), Type: ftHandshakeDone, Class: Forbidden, LongType: true, Bytes: b}, false
	}
}

// ExpectKind is what the server must do with the packet.
type ExpectKind int

const (
	Proceed        ExpectKind = iota // answer with its Initial (ServerHello), no CONNECTION_CLOSE
	ProceedOrClose                   // that, or close with one of Codes
	Reject                           // close with one of Codes, or drop the packet; never proceed
	Draining                         // send nothing, or CONNECTION_CLOSE; never proceed
	Anything                         // no requirement
)

func (k ExpectKind) String() string {
	return [...]string{"proceed", "proceed-or-close", "reject", "draining", "anything"}[k]
}

// Expect is the oracle's requirement for one packet.
type Expect struct {
	Kind        ExpectKind
	Codes       []uint64
	CryptoError bool   // CRYPTO_ERROR codes are in Codes too
	MaySilence  bool   // ProceedOrClose: no handshake answer and no close is acceptable too
	LongType    bool   // a frame type up to the deciding frame is encoded longer than needed
	Cause       *Frame // Reject: the first frame the server must reject
}

func (e Expect) allows(code uint64) bool {
	return slices.Contains(e.Codes, code) || e.CryptoError && code >= 0x100 && code <= 0x1ff
}

// Expectation walks the frames in order, as both servers process them, up to the first one
// that settles the outcome.
//
// The rule (RFC 9000 §12.4 and Table 3; §17.2.2: Initial packets carry CRYPTO, ACK, PADDING,
// PING and CONNECTION_CLOSE of type 0x1c only):
//   - frames before the first forbidden one are permitted; each may end the connection with
//     its own codes (MayFail: ACK of unsent packets or bad ranges, extra CRYPTO data, a frame
//     type in a longer encoding than needed);
//   - the first well-formed frame of a type not permitted in Initial packets must end it with
//     PROTOCOL_VIOLATION (0x0a), the first frame of unknown type with FRAME_ENCODING_ERROR
//     (0x07), unless an earlier permitted frame's error came first;
//   - the connection error is sent as CONNECTION_CLOSE of type 0x1c in an Initial (§10.2,
//     §10.2.3); a server that sends nothing passes too (§11: an endpoint SHOULD, not MUST,
//     signal the error), but one that answers with its handshake and no CONNECTION_CLOSE fails;
//   - with only benign frames (the ClientHello, PADDING, PING) the server must answer with
//     its handshake, without CONNECTION_CLOSE;
//   - after the client's own CONNECTION_CLOSE the server drains: it may send a
//     CONNECTION_CLOSE, not its handshake (§10.2.2);
//   - a damaged ClientHello may end the connection with a TLS alert, TRANSPORT_PARAMETER_ERROR
//     or CRYPTO_BUFFER_EXCEEDED, or leave the server waiting; the frames after it count;
//   - after raw bytes nothing is checked.
//
// Deviations recorded as findings are accepted only through a named Tolerance (see Check).
func Expectation(frames []Frame) Expect {
	var e Expect
	for i := range frames {
		f := &frames[i]
		switch f.Class {
		case Benign:
		case MayFail:
			e.Kind = ProceedOrClose
			for _, c := range f.Codes {
				if !slices.Contains(e.Codes, c) {
					e.Codes = append(e.Codes, c)
				}
			}
			e.CryptoError = e.CryptoError || f.CryptoError
			e.MaySilence = e.MaySilence || f.MaySilence
			e.LongType = e.LongType || f.LongType
		case Forbidden, ForbiddenExt, UnknownType:
			e.Kind, e.Cause = Reject, f
			e.LongType = e.LongType || f.LongType
			code := uint64(ProtocolViolation)
			if f.Class == UnknownType {
				code = FrameEncodingError
			}
			if !slices.Contains(e.Codes, code) {
				e.Codes = append(e.Codes, code)
			}
			return e
		case ClientClose:
			return Expect{Kind: Draining, Cause: f}
		case Unchecked:
			return Expect{Kind: Anything}
		}
	}
	return e
}

// Close is a CONNECTION_CLOSE frame the server sent.
type Close struct {
	Type, Code, FrameType uint64
	Reason                string
}

// Reply is what the server sent back, opened with the server's Initial keys.
type Reply struct {
	Datagrams int
	Initials  int
	Crypto    bool // a CRYPTO frame (the ServerHello) in an Initial packet
	Closes    []Close
	Problems  []string // undecryptable Initials, frames a server must not put in Initials
}

// Add opens one datagram the server sent.
func (r *Reply) Add(dgram []byte, k *Keys) {
	r.Datagrams++
	pkts, err := OpenInitials(dgram, k)
	if err != nil {
		r.Problems = append(r.Problems, err.Error())
	}
	for _, p := range pkts {
		if p.Type != 0 || p.Payload == nil {
			continue
		}
		r.Initials++
		if err := r.frames(p.Payload); err != nil {
			r.Problems = append(r.Problems, fmt.Sprintf("server Initial %d: %v", p.PN, err))
		}
	}
}

var errShort = errors.New("truncated frame")

func (r *Reply) frames(b []byte) error {
	val := func() uint64 {
		x, n := quicvarint.Read(b)
		if n == 0 {
			panic(errShort)
		}
		b = b[n:]
		return x
	}
	skip := func(n uint64) []byte {
		if uint64(len(b)) < n {
			panic(errShort)
		}
		s := b[:n]
		b = b[n:]
		return s
	}
	var err error
	func() {
		defer func() {
			if x := recover(); x != nil {
				if x != errShort {
					panic(x)
				}
				err = errShort
			}
		}()
		for len(b) > 0 {
			switch t := val(); t {
			case ftPadding, ftPing:
			case ftAck, ftAckECN:
				val()
				val()
				n := val()
				val()
				for i := uint64(0); i < 2*n; i++ {
					val()
				}
				if t == ftAckECN {
					val()
					val()
					val()
				}
			case ftCrypto:
				val()
				skip(val())
				r.Crypto = true
			case ftConnectionClose:
				c := Close{Type: t, Code: val(), FrameType: val()}
				c.Reason = string(skip(val()))
				r.Closes = append(r.Closes, c)
			case ftConnectionCloseApp: // not permitted in Initial packets (§10.2.3): reported by Check
				c := Close{Type: t, Code: val()}
				c.Reason = string(skip(val()))
				r.Closes = append(r.Closes, c)
			default:
				err = fmt.Errorf("frame type 0x%x not permitted in Initial packets", t)
				return
			}
		}
	}()
	return err
}

// Settled says whether the reply so far decides the check under e (no need to wait for more).
func (r *Reply) Settled(e Expect) bool {
	switch {
	case len(r.Closes) > 0 || len(r.Problems) > 0:
		return true
	case e.Kind == Reject:
		return false // a handshake answer might still be followed by the close
	case e.Kind == Anything || e.Kind == Draining:
		return r.Datagrams > 0
	case e.MaySilence:
		// Every packet here is ack-eliciting (it has a CRYPTO frame), and Initial packets are
		// acknowledged at once (§13.2.1): an Initial with only an ACK is the answer of a
		// server that waits for more CRYPTO data.
		return r.Crypto || r.Initials > 0
	default:
		return r.Crypto
	}
}

// Tolerance names deviations from the RFC a target has recorded as findings and accepts.
type Tolerance struct {
	// FrameEncodingForForbidden accepts FRAME_ENCODING_ERROR where §12.4 requires
	// PROTOCOL_VIOLATION for a frame type not permitted in Initial packets.
	FrameEncodingForForbidden string // the finding's name; empty: not tolerated
	// NoDatagramSupport: the server does not implement RFC 9221, so a DATAGRAM frame is an
	// unknown frame type to it (FRAME_ENCODING_ERROR), which RFC 9000 §12.4 requires.
	NoDatagramSupport bool
	// FrameEncodingForLongType accepts FRAME_ENCODING_ERROR for a frame type encoded longer
	// than needed, where §12.4 permits only accepting the frame or PROTOCOL_VIOLATION.
	FrameEncodingForLongType string // the finding's name; empty: not tolerated
	// InternalForTransportParameter accepts INTERNAL_ERROR whose reason names
	// TRANSPORT_PARAMETER_ERROR after a damaged ClientHello, where §7.4 and §20.1 require
	// TRANSPORT_PARAMETER_ERROR for badly formatted transport parameters.
	InternalForTransportParameter string // the finding's name; empty: not tolerated
}

// Check applies the oracle to the complete reply (all the server sent before the wait ended).
func Check(e Expect, r *Reply, tol Tolerance) error {
	if len(r.Problems) > 0 {
		return fmt.Errorf("server reply: %v", r.Problems)
	}
	for _, c := range r.Closes {
		if c.Type != ftConnectionClose {
			return fmt.Errorf("server sent CONNECTION_CLOSE type 0x%x (code 0x%x) in an Initial packet (RFC 9000 §10.2.3, §17.2.2)", c.Type, c.Code)
		}
	}
	switch e.Kind {
	case Anything:
		return nil
	case Draining:
		if r.Crypto && len(r.Closes) == 0 {
			return errors.New("server answered the client's CONNECTION_CLOSE with its handshake (RFC 9000 §10.2.2: a draining endpoint MUST NOT send packets)")
		}
		return nil
	case Proceed:
		if len(r.Closes) > 0 {
			return fmt.Errorf("valid Initial: server closed with 0x%x %q", r.Closes[0].Code, r.Closes[0].Reason)
		}
		if !r.Crypto {
			return fmt.Errorf("valid Initial: no handshake answer (%d datagrams, %d Initials)", r.Datagrams, r.Initials)
		}
		return nil
	}
	if len(r.Closes) == 0 {
		if e.Kind == ProceedOrClose && r.Crypto {
			return nil
		}
		if e.Kind == Reject && r.Crypto {
			return fmt.Errorf("%s in an Initial packet: server answered with its handshake and did not close (RFC 9000 §12.4)", e.Cause.Name)
		}
		if e.Kind == Reject || e.MaySilence {
			return nil // dropped, or waiting for more CRYPTO data
		}
		return fmt.Errorf("no handshake answer and no CONNECTION_CLOSE (%d datagrams)", r.Datagrams)
	}
	code := r.Closes[0].Code
	if e.allows(code) {
		return nil
	}
	if code == InternalError && e.allows(TransportParameterError) && tol.InternalForTransportParameter != "" &&
		strings.HasPrefix(r.Closes[0].Reason, "TRANSPORT_PARAMETER_ERROR") {
		return nil // a recorded finding: see the Tolerance's name
	}
	if code == FrameEncodingError && e.LongType && tol.FrameEncodingForLongType != "" {
		return nil // a recorded finding: see the Tolerance's name
	}
	if e.Kind == Reject && code == FrameEncodingError {
		switch {
		case e.Cause.Class == ForbiddenExt && tol.NoDatagramSupport:
			return nil
		case (e.Cause.Class == Forbidden || e.Cause.Class == ForbiddenExt) && tol.FrameEncodingForForbidden != "":
			return nil // a recorded finding: see the Tolerance's name
		}
	}
	what := "its frames"
	if e.Cause != nil {
		what = e.Cause.Name
	}
	return fmt.Errorf("%s: server closed with 0x%x %q (frame type 0x%x), want one of %x (crypto errors: %v)",
		what, code, r.Closes[0].Reason, r.Closes[0].FrameType, e.Codes, e.CryptoError)
}
