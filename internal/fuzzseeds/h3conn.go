package fuzzseeds

import (
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"sort"

	"github.com/wirelab/wirelab/internal/quicvarint"
)

// Seeds for fuzz/nghttp3-h3-conn (issue #16) from the same decrypted traces: per connection, one
// single-side input for each side — a client fed the server's real bytes, a server fed the client's
// — in the harness's input format (the comment at the top of fuzz/nghttp3-h3-conn/harness.c and its
// run_op(); fuzz/common/fdp.h reads it). The ops feed the peer's real streams in trace order (its
// control stream, QPACK encoder and decoder streams, request streams with their FIN), the side
// submits a request (client) or a response (server) where the real side sent its own, and a drain
// follows each feed and submission so the side answers (SETTINGS, QPACK decoder instructions,
// HEADERS/DATA) as it would have. The setup bytes carry the side's own SETTINGS from the trace (the
// limits the peer's encoder obeyed), so the peer's real dynamic-table encodings decode.
//
// What the format cannot say, and what is done instead:
//   - the peer's QPACK decoder stream acknowledges sections and inserts of the real side's encoder,
//     which the harness's side (nghttp3, with its own header sets) never made: a Section
//     Acknowledgment or Insert Count Increment nghttp3's encoder cannot match closes the connection
//     (QPACK_DECODER_STREAM_ERROR), so those are dropped; the stream type and Stream Cancellations
//     are fed;
//   - the side's own requests/responses are the harness's header sets (a GET; a 200 with a 68-byte
//     body), not the real ones;
//   - RESET_STREAM / STOP_SENDING and QUIC flow control are not in the trace the seed is built from;
//   - stream ids stay the real ones when they fit below MAXID (256); otherwise each kind of stream
//     (client bidirectional, client / server unidirectional) is renumbered in id order, and ids inside
//     frames (GOAWAY, PRIORITY_UPDATE, CANCEL_PUSH) are then not rewritten; more than 64 streams of a
//     kind cannot be fed (an error);
//   - an input longer than the target's max_len (16384) is truncated by the fuzzer, so request
//     streams are fed only up to a common cap (always through their first HEADERS frame): a stream
//     longer than the cap is fed no further and gets no FIN.

// H3Conn harness constants (fuzz/nghttp3-h3-conn).
const (
	H3ConnTarget = "nghttp3-h3-conn"
	H3ConnMaxID  = 256   // harness.c MAXID: stream ids 0..255
	H3ConnMaxLen = 16384 // nghttp3-h3-conn.options max_len
	maxFeed      = 65535 // wl_fdp_len: at most a u16 per feed op
)

// Side is the harness's side: its index in sides[] and bit 4 of an op.
type Side int

const (
	SideClient Side = 0
	SideServer Side = 1
)

func (s Side) String() string {
	if s == SideClient {
		return "client"
	}
	return "server"
}

// Fed is the direction whose bytes the side receives.
func (s Side) Fed() Dir {
	if s == SideClient {
		return ToClient
	}
	return ToServer
}

// HTTP/3 settings identifiers (RFC 9114 §7.2.4.1, RFC 8441 §3 / RFC 9220, RFC 9297 §2.1.1).
const (
	SettingMaxFieldSectionSize   = 0x06
	SettingEnableConnectProtocol = 0x08
	SettingH3Datagram            = 0x33
)

// H3Setup is one side's setup block: u8 flags, u16 QPACK max table capacity, u8 blocked streams,
// u16 QPACK encoder table capacity, u16 max field section size (0 = unlimited); a server then u8
// max client bidi streams (0 = 100).
type H3Setup struct {
	Flags                uint8 // bit 0 enable_connect_protocol, bit 1 h3_datagram
	MaxTableCapacity     uint16
	BlockedStreams       uint8
	EncoderTableCapacity uint16
	MaxFieldSectionSize  uint16
	MaxClientBidi        uint8
}

// H3OpKind is an op of the harness (the low 4 bits of its op byte).
type H3OpKind uint8

const (
	OpFeed     H3OpKind = 0 // peer bytes: u8 stream selector, length, u8 flags (bit 0 FIN), bytes
	OpDrain    H3OpKind = 2 // u8 flags (0: everything, acknowledged at once)
	OpRequest  H3OpKind = 4 // client: u8 header selector, body spec
	OpResponse H3OpKind = 5 // server: u8 stream selector, u8 header selector, body spec [+ chunk]
)

// H3Op is one op of a seed; Stream is the harness's stream id.
type H3Op struct {
	Kind   H3OpKind
	Stream uint64
	Data   []byte
	Fin    bool
}

// The side's own submissions: a GET (requests[0], no body); a 200 (responses[0]) with a body of
// (1 & 63) * 64 + (4 & 63) = 68 bytes read 64 at a time (take_body).
const (
	respBodySpec  = 0x01
	respBodyChunk = 0x04
)

// H3ConnSeed is one nghttp3-h3-conn input: one side of one connection of a trace.
type H3ConnSeed struct {
	Conn  int
	Side  Side
	Setup H3Setup
	Ops   []H3Op

	NoSettings bool // the side's own SETTINGS were not in the trace: its limits are 0
	Renumbered bool // stream ids were renumbered into the harness's range
	Streams    int  // peer streams fed
	Bytes      int  // peer bytes fed
	Cap        int  // request streams fed up to this many bytes (-1: all of them)
	Cut        int  // request streams cut at Cap (fed no further, no FIN)
	Dropped    int  // peer QPACK decoder-stream instructions left out (acknowledgments, increments)
	Truncated  int  // trailing ops left out to stay within H3ConnMaxLen (0 normally)
}

func appendLen(b []byte, n int) []byte {
	if n < 255 {
		return append(b, byte(n))
	}
	return append(b, 255, byte(n>>8), byte(n))
}

// selector is a feed op's stream selector: bit 7 a unidirectional stream of the peer, bits 0-5 the
// index (id / 4).
func selector(id uint64) byte {
	if id&2 != 0 {
		return 0x80 | byte(id/4)
	}
	return byte(id / 4)
}

// Encode writes the harness input: setup, then the ops.
func (s *H3ConnSeed) Encode() []byte {
	return s.encode(s.Ops)
}

func (s *H3ConnSeed) encode(ops []H3Op) []byte {
	mode := byte(1) // client only
	if s.Side == SideServer {
		mode = 2
	}
	st := s.Setup
	b := []byte{mode, st.Flags}
	b = binary.BigEndian.AppendUint16(b, st.MaxTableCapacity)
	b = append(b, st.BlockedStreams)
	b = binary.BigEndian.AppendUint16(b, st.EncoderTableCapacity)
	b = binary.BigEndian.AppendUint16(b, st.MaxFieldSectionSize)
	if s.Side == SideServer {
		b = append(b, st.MaxClientBidi)
	}
	side := byte(s.Side) << 4
	for _, op := range ops {
		b = append(b, byte(op.Kind)|side)
		switch op.Kind {
		case OpFeed:
			b = append(b, selector(op.Stream))
			b = appendLen(b, len(op.Data))
			fl := byte(0)
			if op.Fin {
				fl = 1
			}
			b = append(b, fl)
			b = append(b, op.Data...)
		case OpDrain:
			b = append(b, 0)
		case OpRequest:
			b = append(b, 0, 0) // GET, no body
		case OpResponse:
			b = append(b, byte(op.Stream/4), 0, respBodySpec, respBodyChunk)
		}
	}
	return b
}

// Name is the seed's file name: trace-<cell>-<client|server>-<first 8 hex digits of its SHA-1>.
func (s *H3ConnSeed) Name(cell string) string {
	h := sha1.Sum(s.Encode())
	return fmt.Sprintf("trace-%s-%s-%s", cell, s.Side, hex.EncodeToString(h[:])[:8])
}

// delivery is what one STREAM frame made contiguous (fin: the stream is complete with it).
type delivery struct {
	frame int
	dir   Dir
	id    uint64
	data  []byte
	fin   bool
}

type streamKey struct {
	conn int
	dir  Dir
	id   uint64
}

type streamState struct {
	asm      Reassembler
	final    int64 // final size from a FIN, -1 unknown
	maxEnd   uint64
	finDone  bool
	uniType  int64 // -1 until read (unidirectional streams)
	typeBuf  []byte
	decBuf   []byte // decoder stream: an instruction cut short
	firstHdr int64  // request stream: end offset of the first HEADERS frame, -1 unknown
	all      []byte // request stream: the bytes so far (to find firstHdr)
}

// H3ConnError is a trace the harness cannot be fed faithfully (a QUIC rule broken, a stream it cannot
// name); it names the cell.
type H3ConnError struct {
	Cell string
	Msg  string
}

func (e *H3ConnError) Error() string { return e.Cell + ": " + H3ConnTarget + ": " + e.Msg }

// BuildH3Conn turns the STREAM frames of one cell's trace into nghttp3-h3-conn seeds: for every
// connection, a client seed (if the server sent stream bytes) and a server seed (if the client did),
// sorted by connection then side. A trace that breaks a QUIC rule the harness keeps (data beyond a
// stream's final size, two final sizes, a unidirectional stream used by the wrong side, a
// server-initiated bidirectional stream) or has more streams of a kind than the harness can name is
// an error naming the cell.
func BuildH3Conn(cell string, frames []StreamFrame) ([]*H3ConnSeed, error) {
	errf := func(f string, a ...any) error { return &H3ConnError{cell, fmt.Sprintf(f, a...)} }
	frames = append([]StreamFrame(nil), frames...)
	sort.SliceStable(frames, func(i, j int) bool { return frames[i].Frame < frames[j].Frame })
	states := map[streamKey]*streamState{}
	byConn := map[int][]delivery{}
	var conns []int
	for _, f := range frames {
		k := streamKey{f.Conn, f.Dir, f.StreamID}
		where := fmt.Sprintf("conn %d %s stream %d", f.Conn, f.Dir, f.StreamID)
		switch {
		case f.StreamID&3 == 1:
			return nil, errf("%s: a server-initiated bidirectional stream (RFC 9114 §6.1 forbids them; the harness cannot feed one)", where)
		case f.StreamID&3 == 2 && f.Dir == ToClient:
			return nil, errf("%s: server bytes on a client-initiated unidirectional stream", where)
		case f.StreamID&3 == 3 && f.Dir == ToServer:
			return nil, errf("%s: client bytes on a server-initiated unidirectional stream", where)
		}
		st := states[k]
		if st == nil {
			st = &streamState{final: -1, uniType: -1, firstHdr: -1}
			states[k] = st
			if _, seen := byConn[f.Conn]; !seen {
				conns = append(conns, f.Conn)
				byConn[f.Conn] = nil
			}
		}
		end := f.Offset + uint64(len(f.Data))
		if f.Fin {
			if st.final >= 0 && uint64(st.final) != end {
				return nil, errf("%s: FIN at %d after a FIN at %d (two final sizes)", where, end, st.final)
			}
			st.final = int64(end)
		}
		st.maxEnd = max(st.maxEnd, end)
		if st.final >= 0 && st.maxEnd > uint64(st.final) {
			return nil, errf("%s: data up to offset %d after FIN at %d (frame %d)", where, st.maxEnd, st.final, f.Frame)
		}
		b := st.asm.Add(f.Offset, f.Data)
		fin := st.final >= 0 && !st.finDone && st.asm.Delivered() == uint64(st.final)
		if len(b) == 0 && !fin {
			continue
		}
		st.finDone = st.finDone || fin
		byConn[f.Conn] = append(byConn[f.Conn], delivery{f.Frame, f.Dir, f.StreamID, b, fin})
	}
	sort.Ints(conns)
	var out []*H3ConnSeed
	for _, c := range conns {
		ids, renumbered, err := harnessIDs(byConn[c])
		if err != nil {
			return nil, errf("conn %d: %v", c, err)
		}
		settings := [2]map[uint64]uint64{}
		for d := ToServer; d <= ToClient; d++ {
			settings[d] = firstSettings(byConn[c], d)
		}
		for _, side := range []Side{SideClient, SideServer} {
			s := buildSide(c, side, byConn[c], ids, states, settings)
			if s != nil {
				s.Renumbered = renumbered
				out = append(out, s)
			}
		}
	}
	return out, nil
}

// harnessIDs maps every stream of a connection to a harness stream id: the real ids when all fit
// below H3ConnMaxID, otherwise per kind (client bidi 0, client uni 2, server uni 3) the n-th stream
// in id order to n*4 + kind.
func harnessIDs(ds []delivery) (map[uint64]uint64, bool, error) {
	kinds := map[uint64][]uint64{}
	seen := map[uint64]bool{}
	fits := true
	for _, d := range ds {
		if !seen[d.id] {
			seen[d.id] = true
			kinds[d.id&3] = append(kinds[d.id&3], d.id)
			fits = fits && d.id < H3ConnMaxID
		}
	}
	m := map[uint64]uint64{}
	for kind, ids := range kinds {
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
		for n, id := range ids {
			if fits {
				m[id] = id
				continue
			}
			if n >= H3ConnMaxID/4 {
				return nil, false, fmt.Errorf("stream %d: the %d-th stream of its kind, the harness names only %d (stream ids below %d)", id, n+1, H3ConnMaxID/4, H3ConnMaxID)
			}
			m[id] = uint64(n)*4 + kind
		}
	}
	return m, !fits, nil
}

// firstSettings is the first SETTINGS frame sent in direction d (nil when the trace has none).
func firstSettings(ds []delivery, d Dir) map[uint64]uint64 {
	parsers := map[uint64]*H3Stream{}
	for _, x := range ds {
		if x.dir != d || x.id&2 == 0 {
			continue
		}
		p := parsers[x.id]
		if p == nil {
			p = NewH3Stream(x.id)
			parsers[x.id] = p
		}
		for _, ev := range p.Feed(x.data) {
			if ev.Settings != nil {
				return ev.Settings
			}
		}
	}
	return nil
}

func clamp16(v uint64) uint16 { return uint16(min(v, 0xffff)) }

// setupFor is the side's setup from its own SETTINGS (own) and the peer's (peer).
func setupFor(side Side, own, peer map[uint64]uint64) H3Setup {
	st := H3Setup{
		MaxTableCapacity:     clamp16(own[SettingQPACKMaxTableCapacity]),
		BlockedStreams:       uint8(min(own[SettingQPACKBlockedStreams], 0xff)),
		EncoderTableCapacity: clamp16(peer[SettingQPACKMaxTableCapacity]),
	}
	if v, ok := own[SettingMaxFieldSectionSize]; ok && v > 0 && v <= 0xffff {
		st.MaxFieldSectionSize = uint16(v)
	}
	if own[SettingEnableConnectProtocol] == 1 {
		st.Flags |= 1
	}
	if own[SettingH3Datagram] == 1 {
		st.Flags |= 2
	}
	return st
}

// filterDecoder passes a peer QPACK decoder stream's type and Stream Cancellations (ids renumbered)
// and drops Section Acknowledgments and Insert Count Increments; it returns the bytes to feed and
// how many instructions it dropped.
func filterDecoder(st *streamState, b []byte, ids map[uint64]uint64) ([]byte, int) {
	var out []byte
	if st.uniType < 0 {
		st.typeBuf = append(st.typeBuf, b...)
		t, n := quicvarint.Read(st.typeBuf)
		if n == 0 {
			return nil, 0
		}
		out = append(out, st.typeBuf[:n]...)
		st.uniType = int64(t)
		b, st.typeBuf = st.typeBuf[n:], nil
	}
	st.decBuf = append(st.decBuf, b...)
	dropped := 0
	for len(st.decBuf) > 0 {
		prefix, keep := 6, false
		switch {
		case st.decBuf[0]&0x80 != 0: // Section Acknowledgment
			prefix = 7
		case st.decBuf[0]&0x40 != 0: // Stream Cancellation
			keep = true
		}
		v, n := qpackInt(st.decBuf, prefix)
		if n == 0 {
			break // cut short: wait for more
		}
		if keep {
			if m, ok := ids[v]; ok {
				v = m
			}
			out = appendQPACKInt(out, 0x40, 6, v)
		} else {
			dropped++
		}
		st.decBuf = st.decBuf[n:]
	}
	return out, dropped
}

// qpackInt reads a prefixed integer (RFC 7541 §5.1); n == 0 when b is cut short.
func qpackInt(b []byte, prefix int) (uint64, int) {
	mx := uint64(1)<<prefix - 1
	v := uint64(b[0]) & mx
	if v < mx {
		return v, 1
	}
	for i, shift := 1, 0; i < len(b) && shift <= 56; i, shift = i+1, shift+7 {
		v += uint64(b[i]&0x7f) << shift
		if b[i]&0x80 == 0 {
			return v, i + 1
		}
	}
	return 0, 0
}

func appendQPACKInt(b []byte, flags byte, prefix int, v uint64) []byte {
	mx := uint64(1)<<prefix - 1
	if v < mx {
		return append(b, flags|byte(v))
	}
	b = append(b, flags|byte(mx))
	for v -= mx; v >= 128; v >>= 7 {
		b = append(b, byte(v&0x7f)|0x80)
	}
	return append(b, byte(v))
}

// firstHeadersEnd is the offset just past the first HEADERS frame of a request stream's bytes (-1
// while it is incomplete).
func firstHeadersEnd(b []byte) int64 {
	off := 0
	for off < len(b) {
		t, n := quicvarint.Read(b[off:])
		if n == 0 {
			return -1
		}
		l, m := quicvarint.Read(b[off+n:])
		if m == 0 {
			return -1
		}
		end := uint64(off+n+m) + l
		if end > uint64(len(b)) {
			return -1
		}
		off = int(end)
		if t == FrameHeaders {
			return int64(off)
		}
	}
	return -1
}

// buildSide builds the seed of one side of connection c (nil when the peer sent no stream bytes).
func buildSide(c int, side Side, ds []delivery, ids map[uint64]uint64, states map[streamKey]*streamState, settings [2]map[uint64]uint64) *H3ConnSeed {
	fed := side.Fed()
	own := fed.Other()
	s := &H3ConnSeed{Conn: c, Side: side, Setup: setupFor(side, settings[own], settings[fed]), NoSettings: settings[own] == nil}
	if side == SideServer {
		s.Setup.MaxClientBidi = 0 // 100
	}
	// The peer's bytes per delivery, after the decoder-stream filter; request streams' lengths.
	type feedItem struct {
		d    delivery
		data []byte
	}
	var items []feedItem
	reqLen := map[uint64]int{}
	maxReq := 0
	uni := map[uint64]*streamState{} // the peer's unidirectional streams: their type, the filter
	streams := map[uint64]bool{}
	for _, d := range ds {
		if d.dir != fed {
			items = append(items, feedItem{d, nil})
			continue
		}
		data := d.data
		k := streamKey{c, d.dir, d.id}
		if d.id&2 != 0 {
			st := uni[d.id]
			if st == nil {
				st = &streamState{uniType: -1}
				uni[d.id] = st
			}
			switch {
			case st.uniType == UniQPACKDecoder:
				var n int
				data, n = filterDecoder(st, data, ids)
				s.Dropped += n
			case st.uniType < 0:
				buf := append(append([]byte(nil), st.typeBuf...), data...)
				t, n := quicvarint.Read(buf)
				switch {
				case n == 0: // the type is cut short: hold the bytes back until it is complete
					st.typeBuf, data = buf, nil
				case t == UniQPACKDecoder:
					var k int
					data, k = filterDecoder(st, data, ids) // reads the type from st.typeBuf + data
					s.Dropped += k
				default:
					st.uniType, st.typeBuf, data = int64(t), nil, buf
				}
			}
		} else {
			st := states[k]
			st.all = append(st.all, data...)
			if st.firstHdr < 0 {
				st.firstHdr = firstHeadersEnd(st.all)
			}
			reqLen[d.id] += len(data)
			maxReq = max(maxReq, reqLen[d.id])
		}
		if len(data) == 0 && !d.fin {
			continue
		}
		streams[d.id] = true
		items = append(items, feedItem{d, data})
	}
	if len(streams) == 0 {
		return nil
	}
	// ops for a cap on request-stream bytes (-1: none)
	build := func(limit int) (ops []H3Op, bytes, cut int) {
		ops = []H3Op{{Kind: OpDrain}}
		nextBidi := uint64(0)
		responded := map[uint64]bool{}
		given := map[uint64]int{}
		isCut := map[uint64]bool{}
		openUpTo := func(id uint64) {
			opened := false
			for ; nextBidi <= id; nextBidi += 4 {
				ops = append(ops, H3Op{Kind: OpRequest})
				opened = true
			}
			if opened {
				ops = append(ops, H3Op{Kind: OpDrain})
			}
		}
		for _, it := range items {
			d := it.d
			hid := ids[d.id]
			bidi := d.id&2 == 0
			if d.dir != fed { // the side's own bytes: where it submitted its request / response
				if !bidi {
					continue
				}
				if side == SideClient {
					openUpTo(hid)
				} else if !responded[hid] {
					responded[hid] = true
					ops = append(ops, H3Op{Kind: OpResponse, Stream: hid}, H3Op{Kind: OpDrain})
				}
				continue
			}
			data, fin := it.data, d.fin
			if bidi {
				if side == SideClient {
					openUpTo(hid)
				}
				if isCut[d.id] {
					continue
				}
				if limit >= 0 {
					room := max(limit, int(states[streamKey{c, d.dir, d.id}].firstHdr)) - given[d.id]
					if len(data) > room {
						data, fin = data[:max(room, 0)], false
						isCut[d.id] = true
						cut++
					}
				}
				given[d.id] += len(data)
				if len(data) == 0 && !fin {
					continue
				}
			}
			bytes += len(data)
			// Consecutive deliveries on one stream: one feed op (split at the u16 length limit).
			if n := len(ops); n >= 2 && ops[n-1].Kind == OpDrain && ops[n-2].Kind == OpFeed && ops[n-2].Stream == hid &&
				!ops[n-2].Fin && len(ops[n-2].Data)+len(data) <= maxFeed {
				ops[n-2].Data = append(ops[n-2].Data, data...)
				ops[n-2].Fin = fin
				continue
			}
			for len(data) > maxFeed {
				ops = append(ops, H3Op{Kind: OpFeed, Stream: hid, Data: append([]byte(nil), data[:maxFeed]...)}, H3Op{Kind: OpDrain})
				data = data[maxFeed:]
			}
			ops = append(ops, H3Op{Kind: OpFeed, Stream: hid, Data: append([]byte(nil), data...), Fin: fin}, H3Op{Kind: OpDrain})
		}
		return ops, bytes, cut
	}
	ops, bytes, cut := build(-1)
	s.Cap = -1
	if len(s.encode(ops)) > H3ConnMaxLen {
		lo, hi := 0, maxReq // the largest cap that fits: binary search
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if o, _, _ := build(mid); len(s.encode(o)) <= H3ConnMaxLen {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		s.Cap = lo
		ops, bytes, cut = build(lo)
		for len(ops) > 1 && len(s.encode(ops)) > H3ConnMaxLen { // even cap 0 is too long: leave out the end
			ops = ops[:len(ops)-1]
			s.Truncated++
		}
	}
	s.Ops, s.Bytes, s.Cut, s.Streams = ops, bytes, cut, len(streams)
	return s
}
