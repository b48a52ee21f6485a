// Package quictrace turns a QUIC packet trace (pcap + TLS keylog) into Go structs with ONE tshark
// pass (in the wirelab/tshark image).
//
// tshark prints the decrypted dissection tree as JSON (-T json -J "frame ip ipv6 udp quic http3"):
// one object per UDP datagram holding a list of QUIC packets (coalesced packets stay separate),
// each with its frames and, inside CRYPTO frames, the TLS handshake messages. Parse turns that
// into a Trace; the interop checks (internal/quiccheck) are pure functions over a Trace.
package quictrace

import (
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

// ServerPort is the UDP port the lab's servers listen on; it decides a datagram's direction.
const ServerPort = 443

// PreferredAddressPort is the port lab servers put in their preferred_address transport
// parameter (connectionmigration): also decoded as QUIC, its direction taken from the address.
const PreferredAddressPort = 4443

// QUIC versions.
const (
	Version1 uint32 = 0x00000001
	Version2 uint32 = 0x6b3343cf
)

// Direction of a datagram, from the server's port.
type Direction int

const (
	DirUnknown     Direction = iota
	ClientToServer           // destination port is ServerPort
	ServerToClient           // source port is ServerPort
)

func (d Direction) String() string {
	switch d {
	case ClientToServer:
		return "client->server"
	case ServerToClient:
		return "server->client"
	}
	return "unknown"
}

// PacketType is a QUIC packet type (version-independent: v2's long header codes are mapped).
type PacketType int

const (
	TypeUnknown PacketType = iota
	TypeInitial
	Type0RTT
	TypeHandshake
	TypeRetry
	TypeVersionNegotiation
	Type1RTT // short header
)

func (t PacketType) String() string {
	return [...]string{"unknown", "Initial", "0-RTT", "Handshake", "Retry", "VersionNegotiation", "1-RTT"}[t]
}

// QUIC frame types (RFC 9000 section 19) used by the checks.
const (
	FramePadding          = 0x00
	FramePing             = 0x01
	FrameAck              = 0x02
	FrameAckECN           = 0x03
	FrameCrypto           = 0x06
	FrameNewToken         = 0x07
	FrameStreamMin        = 0x08 // 0x08..0x0f
	FrameStreamMax        = 0x0f
	FrameMaxStreamsBidi   = 0x12
	FrameNewConnectionID  = 0x18
	FramePathChallenge    = 0x1a
	FramePathResponse     = 0x1b
	FrameConnectionClose  = 0x1c // transport error
	FrameApplicationClose = 0x1d

	// H3NoError is HTTP/3's application close code for a clean shutdown (RFC 9114 §8.1).
	H3NoError          = 0x100
	FrameHandshakeDone = 0x1e
	// DATAGRAM (RFC 9221 §4): without and with a Length field.
	FrameDatagram    = 0x30
	FrameDatagramLen = 0x31
)

// TLS handshake message types.
const (
	TLSClientHello         = 1
	TLSServerHello         = 2
	TLSNewSessionTicket    = 4
	TLSEncryptedExtensions = 8
	TLSCertificate         = 11
	TLSCertificateVerify   = 15
	TLSFinished            = 20
)

// TLS cipher suites.
const (
	TLSAES128GCMSHA256        uint16 = 0x1301
	TLSAES256GCMSHA384        uint16 = 0x1302
	TLSChaCha20Poly1305SHA256 uint16 = 0x1303
)

// IP ECN codepoints.
const (
	ECNNotECT = 0
	ECNECT1   = 1
	ECNECT0   = 2
	ECNCE     = 3
)

// Trace is one capture: its UDP datagrams in capture order, plus HTTP/3 streams reassembled
// from the STREAM frames.
type Trace struct {
	Datagrams []Datagram
	// H3Streams: every stream that carried STREAM data, in order of first appearance, with the
	// HTTP/3 stream type and frame types parsed from the reassembled bytes (if the connection is h3).
	H3Streams []H3Stream
	// H3Datagrams: the payloads of the QUIC DATAGRAM frames (RFC 9221), in capture order.
	H3Datagrams []H3Datagram
	// LongHeadersOnly: tshark printed only the datagrams with a long-header packet
	// (LongHeaderFilter), enough for the checks that read only those (quiccheck.LongHeaders).
	LongHeadersOnly bool
	// sections: what tshark decoded of each HEADERS frame, by payload (attachHeaderSections)
	sections map[string][]HeaderField
}

// Datagram is one UDP datagram that carried QUIC.
type Datagram struct {
	Frame      int       // tshark frame number (1-based)
	Time       time.Time // capture time
	Src, Dst   string    // "ip:port" ([ip]:port for IPv6)
	IPv6       bool
	Dir        Direction
	Conn       int // tshark's QUIC connection number (quic.connection.number), -1 if unknown
	UDPLen     int // UDP payload length in bytes
	ECN        int // IP ECN bits (ECNNotECT, ECNECT1, ECNECT0, ECNCE)
	Packets    []Packet
	H3Frames   []uint64 // HTTP/3 frame types tshark's h3 dissector found in this datagram
	H3UniTypes []uint64 // HTTP/3 unidirectional stream types tshark found in this datagram
}

// Packet is one QUIC packet (a datagram may hold several coalesced packets).
type Packet struct {
	Frame     int
	Time      time.Time
	Dir       Direction
	Conn      int // tshark's QUIC connection number
	LongHdr   bool
	Type      PacketType
	Version   uint32 // 0 for short header packets
	DCID      string // hex, lower case, no separators
	SCID      string // long header only
	TokenLen  int    // Initial: token length
	Token     string // Initial: token (hex); Retry: the retry token (hex)
	KeyPhase  int    // 1-RTT: key phase bit
	PN        int64  // packet number (-1: unknown, e.g. not decrypted)
	Length    int    // whole packet length in bytes (quic.packet_length)
	Payload   int    // long header: the Length field (packet number + payload); short: Length - 1 - len(DCID)
	Decrypted bool   // tshark decrypted the payload (frames are known)
	Frames    []Frame
	TLS       []TLSMessage // TLS handshake messages tshark reassembled from CRYPTO frames in this packet
	// SupportedVersions: a Version Negotiation packet's list, in packet order.
	SupportedVersions []uint32
}

// Frame is one QUIC frame.
type Frame struct {
	Type     uint64
	StreamID int64 // STREAM frames; -1 otherwise
	Offset   uint64
	Length   uint64
	Fin      bool
	Data     []byte // STREAM frame data; PATH_CHALLENGE / PATH_RESPONSE data
	// ACK_ECN (0x03) counts.
	ECT0, ECT1, CE uint64
	// MAX_STREAMS (0x12, 0x13): the new cumulative stream limit.
	MaxStreams uint64
	// CONNECTION_CLOSE (0x1c transport, 0x1d application): the error code, and for 0x1c the
	// type of the frame that triggered it (RFC 9000 §19.19).
	ErrorCode, ClosedFrameType uint64
}

// ProbeOnly reports whether the packet carries only PING and PADDING frames (e.g. a PMTU probe).
func (p *Packet) ProbeOnly() bool {
	if len(p.Frames) == 0 {
		return false
	}
	for _, f := range p.Frames {
		if f.Type != FramePing && f.Type != FramePadding {
			return false
		}
	}
	return true
}

// IsStream reports whether the frame is a STREAM frame (0x08..0x0f).
func (f Frame) IsStream() bool { return f.Type >= FrameStreamMin && f.Type <= FrameStreamMax }

// TLSMessage is one TLS handshake message.
type TLSMessage struct {
	Type         int
	CipherSuites []uint16 // ClientHello: offered suites; ServerHello: the chosen one
	// Extensions: the extension types the message carries (ServerHello pre_shared_key = a resumed
	// session, EncryptedExtensions early_data = 0-RTT accepted).
	Extensions []uint16
	// Transport parameters (ClientHello / EncryptedExtensions), nil when absent.
	InitialMaxStreamsBidi *uint64
	// PreferredAddresses: the server's preferred_address transport parameter as "ip:port"
	// ("[ip]:port" for IPv6), the IPv4 one first; empty when absent or all-zero.
	PreferredAddresses []string
}

// TLS extension types (RFC 8446 §4.2).
const (
	TLSExtPreSharedKey uint16 = 41
	TLSExtEarlyData    uint16 = 42
)

// HasExtension reports whether the message carries extension typ.
func (m TLSMessage) HasExtension(typ uint16) bool {
	for _, e := range m.Extensions {
		if e == typ {
			return true
		}
	}
	return false
}

// H3Datagram is one QUIC DATAGRAM frame's payload (RFC 9297: an HTTP datagram starts with its
// request's quarter stream id).
type H3Datagram struct {
	Conn  int
	Dir   Direction
	Frame int // tshark frame number
	Data  []byte
}

// H3Stream is one direction of one QUIC stream, as HTTP/3 (a request stream appears twice: the
// client's request and the server's response).
type H3Stream struct {
	ID            int64
	Conn          int       // tshark's QUIC connection number
	Dir           Direction // who sent these bytes
	Uni           bool
	ClientStarted bool     // client-initiated (stream id bit 0 == 0)
	UniType       *uint64  // unidirectional: stream type (0x00 control, 0x02 QPACK encoder, 0x03 decoder)
	FrameTypes    []uint64 // HTTP/3 frame types in stream order (control and request streams)
	Bytes         uint64   // contiguous bytes reassembled from offset 0
	Truncated     bool     // a gap or an unparseable frame ended the parse early
	Fin           bool     // the stream's FIN was seen and every byte before it reassembled
	// Past a gap: the highest offset any STREAM frame reached and where a FIN was seen (0 when
	// none), so a stream cut short by missing bytes says how much of it the trace does hold.
	SeenEnd, FinAt uint64
	// Frames: the HEADERS and SETTINGS frames' payloads in stream order (QPACK field sections,
	// settings), for the checks that read what a request or a SETTINGS frame said.
	Frames []H3Frame
	// WebTransport (draft-ietf-webtrans-http3 §4.2, §4.3): a uni stream of type 0x54 or a bidi
	// stream starting with the signal 0x41 belongs to the session WTSession; WTPayload is what
	// follows the session id. QPACKEncoder: an encoder stream's instructions (its dynamic table).
	WTSession    *uint64
	WTPayload    []byte
	QPACKEncoder []byte
	// Raw is every byte reassembled from offset 0 (the answering side of a WebTransport bidi
	// stream carries no prefix: only the stream's pairing says what it is).
	Raw []byte
}

// H3Frame is one HTTP/3 frame a check reads the payload of.
type H3Frame struct {
	Type    uint64
	Payload []byte
	Fields  []HeaderField // HEADERS: the field section as tshark decoded it (nil: not decoded)
}

// H3 stream and frame types.
const (
	H3StreamControl      = 0x00
	H3StreamPush         = 0x01
	H3StreamQPACKEncoder = 0x02
	H3StreamQPACKDecoder = 0x03
	// H3StreamWebTransport is the WebTransport uni stream type, H3WebTransportSignal the bidi
	// stream signal (draft-ietf-webtrans-http3 §4.2, §4.3), each followed by the session id.
	H3StreamWebTransport = 0x54
	H3WebTransportSignal = 0x41

	H3FrameData     = 0x00
	H3FrameHeaders  = 0x01
	H3FrameSettings = 0x04
	H3FrameGoaway   = 0x07
)

// Packets returns every QUIC packet in capture order.
func (t *Trace) Packets() []Packet {
	var out []Packet
	for _, d := range t.Datagrams {
		out = append(out, d.Packets...)
	}
	return out
}

// Filter returns the packets for which keep is true.
func (t *Trace) Filter(keep func(p *Packet) bool) []Packet {
	var out []Packet
	for _, d := range t.Datagrams {
		for i := range d.Packets {
			if keep(&d.Packets[i]) {
				out = append(out, d.Packets[i])
			}
		}
	}
	return out
}

// Handshakes is the upstream runner's handshake count: the number of distinct SCIDs in
// server-sent Initial packets, in order of first appearance.
func (t *Trace) Handshakes() []string {
	return serverInitialsDistinct(t, func(p *Packet) string { return p.SCID })
}

// ServerInitialVersions returns the distinct versions of server-sent Initial packets.
func (t *Trace) ServerInitialVersions() []uint32 {
	return serverInitialsDistinct(t, func(p *Packet) uint32 { return p.Version })
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

// serverInitialsDistinct returns the distinct values of field over server-sent Initial packets,
// in order of first appearance.
func serverInitialsDistinct[K comparable](t *Trace, field func(*Packet) K) []K {
	seen := map[K]bool{}
	var out []K
	for _, p := range t.Filter(func(p *Packet) bool { return p.Dir == ServerToClient && p.Type == TypeInitial }) {
		if k := field(&p); !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

func parseUint(s string) (uint64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	base := 10
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		s, base = s[2:], 16
	}
	v, err := strconv.ParseUint(s, base, 64)
	return v, err == nil
}

func parseHex(s string) []byte {
	s = strings.ReplaceAll(s, ":", "")
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil
	}
	return b
}

func cid(s string) string { return strings.ToLower(strings.ReplaceAll(s, ":", "")) }
