package quictrace

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/quicvarint"
)

// tsharkPacket is one element of tshark's -T json output.
type tsharkPacket struct {
	Source struct {
		Layers map[string]any `json:"layers"`
	} `json:"_source"`
}

// Parse reads tshark's `-T json --no-duplicate-keys` output (see TsharkArgs) into a Trace.
// The array is decoded one datagram at a time, so memory follows the parsed Trace, not the JSON.
// Datagrams without a QUIC layer are skipped.
func Parse(r io.Reader) (*Trace, error) {
	dec := json.NewDecoder(r)
	tok, err := dec.Token()
	if err == io.EOF {
		return &Trace{}, nil // tshark prints nothing for an empty capture
	}
	if err != nil {
		return nil, fmt.Errorf("parse tshark json: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, fmt.Errorf("parse tshark json: want an array, got %v", tok)
	}
	t := &Trace{}
	sections := map[string][]HeaderField{}
	for i := 1; dec.More(); i++ {
		var pkt tsharkPacket
		if err := dec.Decode(&pkt); err != nil {
			return nil, fmt.Errorf("parse tshark json: packet %d: %w", i, err)
		}
		d, ok, err := parseDatagram(pkt.Source.Layers)
		if err != nil {
			return nil, fmt.Errorf("tshark json packet %d: %w", i, err)
		}
		if ok {
			t.Datagrams = append(t.Datagrams, d)
		}
		if h3 := pkt.Source.Layers["http3"]; h3 != nil {
			collectHeaderSections(h3, sections)
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("parse tshark json: unterminated array: %w", err)
	}
	directByServerAddress(t)
	t.sections = sections
	t.H3Streams = reassembleH3(t)
	attachHeaderSections(t.H3Streams, sections)
	return t, nil
}

func parseDatagram(L map[string]any) (Datagram, bool, error) {
	var d Datagram
	quic := list(L["quic"])
	if len(quic) == 0 {
		return d, false, nil
	}
	fr := obj(last(L["frame"]))
	n, _ := parseUint(str(fr, "frame.number"))
	d.Frame = int(n)
	d.Time = parseTime(str(fr, "frame.time_epoch"))

	var src, dst string
	if ip := obj(last(L["ip"])); ip != nil {
		src, dst = str(ip, "ip.src"), str(ip, "ip.dst")
		if e, ok := parseUint(find(ip, "ip.dsfield.ecn")); ok {
			d.ECN = int(e)
		}
	} else if ip6 := obj(last(L["ipv6"])); ip6 != nil {
		src, dst = str(ip6, "ipv6.src"), str(ip6, "ipv6.dst")
		d.IPv6 = true
		if e, ok := parseUint(find(ip6, "ipv6.tclass.ecn")); ok {
			d.ECN = int(e)
		}
	}
	udp := obj(last(L["udp"]))
	if udp == nil {
		return d, false, nil
	}
	sp, _ := parseUint(str(udp, "udp.srcport"))
	dp, _ := parseUint(str(udp, "udp.dstport"))
	ul, _ := parseUint(str(udp, "udp.length"))
	if ul >= 8 {
		d.UDPLen = int(ul) - 8
	}
	d.Src = net.JoinHostPort(src, strconv.FormatUint(sp, 10))
	d.Dst = net.JoinHostPort(dst, strconv.FormatUint(dp, 10))
	switch {
	case dp == ServerPort:
		d.Dir = ClientToServer
	case sp == ServerPort:
		d.Dir = ServerToClient
	}

	d.Conn = -1
	if c, ok := parseUint(find(quic, "quic.connection.number")); ok {
		d.Conn = int(c)
	}
	for _, q := range quic {
		qo := obj(q)
		if qo == nil {
			continue
		}
		p, ok := parsePacket(qo)
		if !ok {
			continue
		}
		p.Frame, p.Time, p.Dir, p.Conn = d.Frame, d.Time, d.Dir, d.Conn
		d.Packets = append(d.Packets, p)
	}
	for _, h := range list(L["http3"]) {
		for _, s := range findAll(h, "http3.frame_type") {
			if v, ok := parseUint(s); ok {
				d.H3Frames = append(d.H3Frames, v)
			}
		}
		for _, s := range findAll(h, "http3.stream_uni_type") {
			if v, ok := parseUint(s); ok {
				d.H3UniTypes = append(d.H3UniTypes, v)
			}
		}
	}
	return d, len(d.Packets) > 0, nil
}

func parsePacket(q map[string]any) (Packet, bool) {
	var p Packet
	hdr := q
	if s := obj(q["quic.short"]); s != nil {
		hdr = s
	}
	form := str(hdr, "quic.header_form")
	if form == "" {
		return p, false // e.g. coalesced padding only
	}
	p.PN = -1
	if pn, ok := parseUint(str(hdr, "quic.packet_number")); ok {
		p.PN = int64(pn)
	} else if pn, ok := parseUint(str(q, "quic.packet_number")); ok {
		p.PN = int64(pn)
	}
	pl, _ := parseUint(str(q, "quic.packet_length"))
	p.Length = int(pl)
	p.DCID = cid(str(hdr, "quic.dcid"))
	if form == "1" {
		p.LongHdr = true
		v, _ := parseUint(str(hdr, "quic.version"))
		p.Version = uint32(v)
		p.SCID = cid(str(hdr, "quic.scid"))
		p.Type = longType(hdr, p.Version)
		if tl, ok := parseUint(str(hdr, "quic.token_length")); ok {
			p.TokenLen = int(tl)
		}
		p.Token = cid(str(hdr, "quic.token"))
		if p.Type == TypeRetry {
			p.Token = cid(str(hdr, "quic.retry_token"))
			p.TokenLen = len(p.Token) / 2
		}
		if l, ok := parseUint(str(hdr, "quic.length")); ok {
			p.Payload = int(l)
		}
		if p.Type == TypeVersionNegotiation {
			for _, s := range findAll(hdr, "quic.supported_version") {
				if v, ok := parseUint(s); ok {
					p.SupportedVersions = append(p.SupportedVersions, uint32(v))
				}
			}
		}
	} else {
		p.Type = Type1RTT
		if kp, ok := parseUint(str(hdr, "quic.key_phase")); ok {
			p.KeyPhase = int(kp)
		}
		if n := p.Length - 1 - len(p.DCID)/2; n > 0 {
			p.Payload = n
		}
	}
	for _, f := range list(q["quic.frame"]) {
		fo := obj(f)
		if fo == nil {
			continue
		}
		p.Decrypted = true
		p.Frames = append(p.Frames, parseFrame(fo))
		for _, tls := range list(fo["tls"]) {
			for _, hm := range list(obj(tls)["tls.handshake"]) {
				if m, ok := parseTLS(obj(hm)); ok {
					p.TLS = append(p.TLS, m)
				}
			}
		}
	}
	if p.Type == TypeRetry || p.Type == TypeVersionNegotiation {
		p.Decrypted = true
	}
	return p, true
}

func longType(hdr map[string]any, version uint32) PacketType {
	field := "quic.long.packet_type"
	if version == Version2 {
		field = "quic.long.packet_type_v2"
	}
	t, ok := parseUint(str(hdr, field))
	if !ok && version != 0 {
		return TypeUnknown
	}
	return longPacketType(t, version)
}

// longPacketType maps a long header's two type bits to the packet type: v2 permutes them
// (RFC 9369 §3.2); version 0 is Version Negotiation.
func longPacketType(typeBits uint64, version uint32) PacketType {
	switch version {
	case 0:
		return TypeVersionNegotiation
	case Version2:
		return [...]PacketType{TypeRetry, TypeInitial, Type0RTT, TypeHandshake}[typeBits&3]
	}
	return [...]PacketType{TypeInitial, Type0RTT, TypeHandshake, TypeRetry}[typeBits&3]
}

func parseFrame(f map[string]any) Frame {
	fr := Frame{StreamID: -1}
	fr.Type, _ = parseUint(str(f, "quic.frame_type"))
	switch {
	case fr.IsStream():
		id, _ := parseUint(str(f, "quic.stream.stream_id"))
		fr.StreamID = int64(id)
		fr.Offset, _ = parseUint(str(f, "quic.stream.offset"))
		fr.Data = parseHex(str(f, "quic.stream_data"))
		if l, ok := parseUint(str(f, "quic.stream.length")); ok {
			fr.Length = l
		} else {
			fr.Length = uint64(len(fr.Data))
		}
		fr.Fin = fr.Type&1 == 1
	case fr.Type == FrameDatagram || fr.Type == FrameDatagramLen:
		fr.Data = parseHex(str(f, "quic.dg"))
		fr.Length = uint64(len(fr.Data))
	case fr.Type == FrameAckECN:
		fr.ECT0, _ = parseUint(str(f, "quic.ack.ect0_count"))
		fr.ECT1, _ = parseUint(str(f, "quic.ack.ect1_count"))
		fr.CE, _ = parseUint(str(f, "quic.ack.ecn_ce_count"))
	case fr.Type == FrameMaxStreamsBidi || fr.Type == FrameMaxStreamsBidi+1:
		fr.MaxStreams, _ = parseUint(str(f, "quic.ms.max_streams"))
	case fr.Type == FramePathChallenge:
		fr.Data = parseHex(str(f, "quic.path_challenge.data"))
	case fr.Type == FramePathResponse:
		fr.Data = parseHex(str(f, "quic.path_response.data"))
	case fr.Type == FrameConnectionClose:
		fr.ErrorCode, _ = parseUint(str(f, "quic.cc.error_code"))
		fr.ClosedFrameType, _ = parseUint(str(f, "quic.cc.frame_type"))
	case fr.Type == FrameApplicationClose:
		fr.ErrorCode, _ = parseUint(str(f, "quic.cc.error_code.app"))
	case fr.Type == FrameCrypto:
		fr.Offset, _ = parseUint(str(f, "quic.crypto.offset"))
		fr.Length, _ = parseUint(str(f, "quic.crypto.length"))
	}
	return fr
}

func parseTLS(h map[string]any) (TLSMessage, bool) {
	var m TLSMessage
	t, ok := parseUint(str(h, "tls.handshake.type"))
	if !ok {
		return m, false
	}
	m.Type = int(t)
	if m.Type == TLSClientHello || m.Type == TLSServerHello {
		for _, s := range findAll(h, "tls.handshake.ciphersuite") {
			if v, ok := parseUint(s); ok {
				m.CipherSuites = append(m.CipherSuites, uint16(v))
			}
		}
	}
	for _, s := range findAll(h, "tls.handshake.extension.type") {
		if v, ok := parseUint(s); ok {
			m.Extensions = append(m.Extensions, uint16(v))
		}
	}
	if v, ok := parseUint(find(h, "tls.quic.parameter.initial_max_streams_bidi")); ok {
		m.InitialMaxStreamsBidi = &v
	}
	m.PreferredAddresses = preferredAddresses(h)
	return m, true
}

// preferredAddresses reads the preferred_address transport parameter (RFC 9000 §18.2); an
// all-zero address or port means that family is not offered.
func preferredAddresses(h map[string]any) []string {
	var out []string
	for _, fam := range []string{"ipv4", "ipv6"} {
		ip := find(h, "tls.quic.parameter.preferred_address."+fam+"address")
		port, _ := parseUint(find(h, "tls.quic.parameter.preferred_address."+fam+"port"))
		if a := net.ParseIP(ip); a != nil && !a.IsUnspecified() && port != 0 {
			out = append(out, net.JoinHostPort(a.String(), strconv.FormatUint(port, 10)))
		}
	}
	return out
}

// reassembleH3 rebuilds each stream's bytes from offset 0 and parses the HTTP/3 framing; it
// also collects the DATAGRAM frames.
func reassembleH3(t *Trace) []H3Stream {
	type seg struct {
		off  uint64
		data []byte
		fin  bool
	}
	type key struct {
		conn int
		id   int64
		dir  Direction
	}
	segs := map[key][]seg{}
	var order []key
	for _, d := range t.Datagrams {
		for _, p := range d.Packets {
			for _, f := range p.Frames {
				if f.Type == FrameDatagram || f.Type == FrameDatagramLen {
					t.H3Datagrams = append(t.H3Datagrams, H3Datagram{Conn: d.Conn, Dir: d.Dir, Frame: d.Frame, Data: f.Data})
				}
				if !f.IsStream() {
					continue
				}
				k := key{d.Conn, f.StreamID, d.Dir}
				if _, ok := segs[k]; !ok {
					order = append(order, k)
				}
				segs[k] = append(segs[k], seg{f.Offset, f.Data, f.Fin})
			}
		}
	}
	var out []H3Stream
	for _, k := range order {
		ss := segs[k]
		sort.SliceStable(ss, func(i, j int) bool { return ss[i].off < ss[j].off })
		var buf []byte
		fin, gap := false, false
		var seenEnd, finAt uint64
		for _, s := range ss {
			end := s.off + uint64(len(s.data))
			seenEnd = max(seenEnd, end)
			if s.fin {
				finAt = end
			}
			if gap || s.off > uint64(len(buf)) {
				gap = true // past a gap: only counted
				continue
			}
			if end > uint64(len(buf)) {
				buf = append(buf, s.data[uint64(len(buf))-s.off:]...)
			}
			fin = fin || (s.fin && end == uint64(len(buf)))
		}
		st := parseH3Stream(k.id, buf)
		st.Dir, st.Conn, st.Fin, st.Raw, st.SeenEnd, st.FinAt = k.dir, k.conn, fin, buf, seenEnd, finAt
		out = append(out, st)
	}
	return out
}

func parseH3Stream(id int64, b []byte) H3Stream {
	s := H3Stream{ID: id, Uni: id&2 != 0, ClientStarted: id&1 == 0, Bytes: uint64(len(b))}
	if s.Uni {
		typ, n := quicvarint.Read(b)
		if n == 0 {
			s.Truncated = len(b) > 0
			return s
		}
		s.UniType = &typ
		b = b[n:]
		switch typ {
		case H3StreamControl:
		case H3StreamWebTransport:
			s.wtSession(b)
			return s
		case H3StreamQPACKEncoder:
			s.QPACKEncoder = b
			return s
		default:
			return s // QPACK decoder instructions or push/unknown streams: no HTTP/3 frames to list
		}
	} else if sig, n := quicvarint.Read(b); n > 0 && sig == H3WebTransportSignal {
		s.FrameTypes = []uint64{sig}
		s.wtSession(b[n:])
		return s
	}
	for len(b) > 0 {
		typ, n := quicvarint.Read(b)
		if n == 0 {
			s.Truncated = true
			return s
		}
		l, m := quicvarint.Read(b[n:])
		if m == 0 {
			s.Truncated = true
			return s
		}
		s.FrameTypes = append(s.FrameTypes, typ)
		b = b[n+m:]
		if l > uint64(len(b)) {
			return s // frame continues beyond the captured bytes
		}
		if typ == H3FrameHeaders || typ == H3FrameSettings {
			s.Frames = append(s.Frames, H3Frame{Type: typ, Payload: b[:l]})
		}
		b = b[l:]
	}
	return s
}

// wtSession reads the session id that follows a WebTransport stream's type or signal.
func (s *H3Stream) wtSession(b []byte) {
	sid, n := quicvarint.Read(b)
	if n == 0 {
		s.Truncated = len(b) > 0
		return
	}
	s.WTSession, s.WTPayload = &sid, b[n:]
}

func parseTime(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		sec, frac := math.Modf(f)
		// keep microseconds exact from the string when possible
		if i := strings.IndexByte(s, '.'); i >= 0 {
			digits := (s[i+1:] + "000000000")[:9]
			if ns, err := strconv.ParseInt(digits, 10, 64); err == nil {
				return time.Unix(int64(sec), ns).UTC()
			}
		}
		return time.Unix(int64(sec), int64(frac*1e9)).UTC()
	}
	if tm, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return tm
	}
	return time.Time{}
}

// JSON helpers: tshark's --no-duplicate-keys turns repeated keys into arrays, so every value may
// be a string, an object or an array of either.

func list(v any) []any {
	switch x := v.(type) {
	case nil:
		return nil
	case []any:
		return x
	default:
		return []any{x}
	}
}

func last(v any) any {
	l := list(v)
	if len(l) == 0 {
		return nil
	}
	return l[len(l)-1]
}

func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func str(m map[string]any, key string) string {
	if m == nil {
		return ""
	}
	for _, v := range list(m[key]) {
		if s, ok := v.(string); ok {
			return s
		}
	}
	return ""
}

// find returns the first string value of key anywhere below v (depth first).
func find(v any, key string) string {
	all := findAll(v, key)
	if len(all) == 0 {
		return ""
	}
	return all[0]
}

// findAll returns every string value of key anywhere below v, in document order of the parent
// objects (Go maps are unordered, so siblings are visited in sorted key order).
func findAll(v any, key string) []string {
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if k == key {
					for _, e := range list(x[k]) {
						if s, ok := e.(string); ok {
							out = append(out, s)
						}
					}
					continue
				}
				walk(x[k])
			}
		}
	}
	walk(v)
	return out
}

// directByServerAddress gives datagrams on other ports than ServerPort (a server's preferred
// address, e.g. server46 port 4443) their direction from the server's IP addresses, learned
// from the datagrams to and from port ServerPort.
func directByServerAddress(t *Trace) {
	servers := map[string]bool{}
	for _, d := range t.Datagrams {
		if d.Dir == ClientToServer {
			servers[host(d.Dst)] = true
		} else if d.Dir == ServerToClient {
			servers[host(d.Src)] = true
		}
	}
	for i := range t.Datagrams {
		d := &t.Datagrams[i]
		if d.Dir != DirUnknown {
			continue
		}
		switch {
		// The port first: when client and server share an IP (a loopback fixture), only the
		// preferred-address port tells the sides apart.
		case servers[host(d.Src)] && port(d.Src) == PreferredAddressPort:
			d.Dir = ServerToClient
		case servers[host(d.Dst)]:
			d.Dir = ClientToServer
		case servers[host(d.Src)]:
			d.Dir = ServerToClient
		default:
			continue
		}
		for j := range d.Packets {
			d.Packets[j].Dir = d.Dir
		}
	}
}

func host(hostport string) string {
	h, _, err := net.SplitHostPort(hostport)
	if err != nil {
		return hostport
	}
	return h
}

func port(hostport string) int {
	_, p, _ := net.SplitHostPort(hostport)
	n, _ := strconv.Atoi(p)
	return n
}
