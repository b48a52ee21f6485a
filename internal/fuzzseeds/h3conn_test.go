package fuzzseeds

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/quicvarint"
)

// ---- a reader of nghttp3-h3-conn inputs, as fuzz/nghttp3-h3-conn/harness.c reads them ----

// h3Reader is fuzz/common/fdp.h's front cursor, except that reading past the end is an error (fdp.h
// answers 0): a seed must never rely on that.
type h3Reader struct {
	b   []byte
	p   int
	err error
}

func (r *h3Reader) u8() byte {
	if r.p >= len(r.b) {
		if r.err == nil {
			r.err = fmt.Errorf("input ends at byte %d inside an op or the setup", r.p)
		}
		return 0
	}
	r.p++
	return r.b[r.p-1]
}
func (r *h3Reader) u16() uint16 { return uint16(r.u8())<<8 | uint16(r.u8()) }
func (r *h3Reader) length() int { // wl_fdp_len
	n := int(r.u8())
	if n == 255 {
		n = int(r.u16())
	}
	return n
}
func (r *h3Reader) bytes(n int) []byte {
	if r.p+n > len(r.b) {
		if r.err == nil {
			r.err = fmt.Errorf("input ends inside %d bytes of stream data at byte %d", n, r.p)
		}
		n = len(r.b) - r.p
	}
	r.p += n
	return r.b[r.p-n : r.p]
}

type fedStream struct {
	data []byte
	fin  bool
}

type h3Replay struct {
	sides [2]*H3Setup
	fed   map[uint64]*fedStream // by harness stream id
	log   []string              // one line per op
}

const (
	stRFIN   = 1 // harness.c ST_RFIN
	stOpened = 4 // ST_OPENED
)

// replayH3Conn reads a whole input the way run() and run_op() do and keeps the QUIC-layer state of
// the harness (peer_may_send, the client's next request stream): a feed the harness would silently
// drop — a stream the peer may not send on, anything after FIN — is an error, as is an op kind these
// seeds do not use.
func replayH3Conn(b []byte) (*h3Replay, error) {
	r := &h3Reader{b: b}
	rp := &h3Replay{fed: map[uint64]*fedStream{}}
	mode := r.u8()
	if mode&^3 != 0 {
		return nil, fmt.Errorf("mode %#x: injection, ORIGIN or a stream limit set", mode)
	}
	sides := mode & 3
	for i := 0; i < 2; i++ {
		if (sides == 1 && i == 1) || (sides == 2 && i == 0) {
			continue
		}
		st := &H3Setup{Flags: r.u8(), MaxTableCapacity: r.u16(), BlockedStreams: r.u8(), EncoderTableCapacity: r.u16(), MaxFieldSectionSize: r.u16()}
		if i == 1 {
			st.MaxClientBidi = r.u8()
		}
		rp.sides[i] = st
	}
	var st [2][H3ConnMaxID]byte
	nextBidi := 0
	for n := 0; r.err == nil && r.p < len(r.b); n++ {
		op := r.u8()
		side := int(op >> 4 & 1)
		if rp.sides[side] == nil {
			return nil, fmt.Errorf("op %d: side %d does not exist", n, side)
		}
		if op>>5 != 0 {
			return nil, fmt.Errorf("op %d: argument %d (timestamps, rounds, info) not expected", n, op>>5)
		}
		server := side == 1
		switch H3OpKind(op & 15) {
		case OpFeed:
			sel := r.u8()
			id := int(sel&63) * 4
			if sel&0x80 != 0 {
				id += map[bool]int{true: 2, false: 3}[server]
			}
			want := r.length()
			fl := r.u8()
			d := r.bytes(want)
			if r.err != nil {
				break
			}
			if fl>>1 != 0 {
				return nil, fmt.Errorf("op %d: chunked feed %d", n, fl>>1)
			}
			ok := st[side][id]&stRFIN == 0
			if server {
				ok = ok && (id&3 == 0 || id&3 == 2)
			} else {
				ok = ok && (id&3 == 3 || (id&3 == 0 && st[side][id]&stOpened != 0))
			}
			if !ok {
				return nil, fmt.Errorf("op %d: %d bytes on stream %d the harness drops (peer may not send there)", n, len(d), id)
			}
			f := rp.fed[uint64(id)]
			if f == nil {
				f = &fedStream{}
				rp.fed[uint64(id)] = f
			}
			f.data = append(f.data, d...)
			if fl&1 != 0 {
				f.fin = true
				st[side][id] |= stRFIN
			}
			rp.log = append(rp.log, fmt.Sprintf("feed %d %d%s", id, len(d), map[bool]string{true: " fin"}[fl&1 != 0]))
		case OpDrain:
			if fl := r.u8(); fl != 0 {
				return nil, fmt.Errorf("op %d: drain flags %#x", n, fl)
			}
			rp.log = append(rp.log, "drain")
		case OpRequest:
			sel, spec := r.u8(), r.u8()
			if sel&8 != 0 || spec != 0 {
				return nil, fmt.Errorf("op %d: request with an extra header or body", n)
			}
			if server || nextBidi >= H3ConnMaxID {
				return nil, fmt.Errorf("op %d: request the harness ignores", n)
			}
			st[side][nextBidi] |= stOpened
			rp.log = append(rp.log, fmt.Sprintf("request %d", nextBidi))
			nextBidi += 4
		case OpResponse:
			sid, sel := r.u8(), r.u8()
			if spec := r.u8(); spec != 0 {
				r.u8()
			}
			if !server || sid>>6 != 0 || sel&8 != 0 {
				return nil, fmt.Errorf("op %d: response the harness ignores", n)
			}
			rp.log = append(rp.log, fmt.Sprintf("response %d", int(sid)*4))
		default:
			return nil, fmt.Errorf("op %d: kind %d", n, op&15)
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	return rp, nil
}

func TestReplayH3ConnRejectsWhatTheHarnessDrops(t *testing.T) {
	for name, in := range map[string]string{
		"response before any request": "01 00 0000 00 0000 0000  00 00 01 00 aa",
		"feed after FIN":              "02 00 0000 00 0000 0000 00  10 00 01 01 aa  10 00 01 00 bb",
		"client uni to a server":      "02 00 0000 00 0000 0000 00  10 80 01 00 aa", // 4*0+2 is the client's: fine
		"truncated op":                "01 00 0000 00 0000 0000  00 83 05 00 aa",
	} {
		_, err := replayH3Conn(unhex(t, in))
		if (err == nil) != (name == "client uni to a server") {
			t.Errorf("%s: err %v", name, err)
		}
	}
}

// ---- building traces ----

func h3frame(t uint64, payload []byte) []byte {
	return append(quicvarint.Append(quicvarint.Append(nil, t), uint64(len(payload))), payload...)
}

func settingsFrame(kv ...uint64) []byte {
	var p []byte
	for _, v := range kv {
		p = quicvarint.Append(p, v)
	}
	return h3frame(FrameSettings, p)
}

func cat(bs ...[]byte) []byte { return bytes.Join(bs, nil) }

// tr collects STREAM frames; each add is one frame in a new packet.
type tr struct{ frames []StreamFrame }

func (x *tr) add(dir Dir, id, off uint64, data []byte, fin bool) {
	x.frames = append(x.frames, StreamFrame{Frame: len(x.frames) + 1, Dir: dir, StreamID: id, Offset: off, Data: data, Fin: fin})
}

// a connection as a QUIC run traces it, both sides' streams, some out of order and retransmitted.
func syntheticTrace() (x *tr, streams map[string][]byte) {
	x = &tr{}
	cCtl := cat([]byte{0x00}, settingsFrame(SettingQPACKMaxTableCapacity, 4096, SettingQPACKBlockedStreams, 16, SettingMaxFieldSectionSize, 16384))
	// Set Dynamic Table Capacity 1024 (what the server allows); Insert With Name Reference (static 17)
	cEnc := []byte{0x02, 0x3f, 0xe1, 0x07, 0xc0 | 17}
	cEnc = append(cEnc, 0x03, 'a', 'b', 'c')
	cDec := []byte{0x03, 0x80 | 0x7f, 0x01, 0x44, 0x01} // Section Ack stream 128, Stream Cancellation stream 4, Insert Count Increment 1
	sCtl := cat([]byte{0x00}, settingsFrame(SettingQPACKMaxTableCapacity, 1024, SettingQPACKBlockedStreams, 8, SettingEnableConnectProtocol, 1), h3frame(0x21, []byte{0x08}))
	sEnc := []byte{0x02, 0x3f, 0xe1, 0x1f} // Set Dynamic Table Capacity 4096
	sDec := []byte{0x03, 0x80}             // Section Ack stream 0
	// GET https /index.html; a POST whose section references the inserted entry (RIC 1, encoded 2 with 32 entries; Delta Base 0: relative index 0) and
	// has :scheme, :path from the static table, with a body.
	req0 := cat(h3frame(FrameHeaders, []byte{0x00, 0x00, 0xd1, 0xd7, 0x51, 0x0b, '/', 'i', 'n', 'd', 'e', 'x', '.', 'h', 't', 'm', 'l', 0x50, 0x01, 'a'}))
	req4 := cat(h3frame(FrameHeaders, []byte{0x02, 0x00, 0x80, 0xd7, 0xc1, 0x50, 0x01, 'a'}), h3frame(FrameData, []byte("body")))
	resp0 := cat(h3frame(FrameHeaders, []byte{0x00, 0x00, 0xd9}), h3frame(FrameData, bytes.Repeat([]byte{'x'}, 300)))
	resp4 := cat(h3frame(FrameHeaders, []byte{0x00, 0x00, 0xd9}), h3frame(FrameData, []byte("hello")))

	x.add(ToServer, 2, 0, cCtl, false)
	x.add(ToServer, 6, 4, cEnc[4:], false) // out of order: waits for the first 4 bytes
	x.add(ToServer, 6, 0, cEnc[:4], false)
	x.add(ToServer, 10, 0, cDec[:2], false)
	x.add(ToServer, 0, 3, req0[3:], true) // the end of the request first, with FIN
	x.add(ToServer, 0, 0, req0[:3], false)
	x.add(ToClient, 3, 0, sCtl, false)
	x.add(ToClient, 7, 0, sEnc, false)
	x.add(ToServer, 4, 0, req4, true)
	x.add(ToClient, 11, 0, sDec, false)
	x.add(ToClient, 0, 0, resp0[:200], false)
	x.add(ToServer, 10, 2, cDec[2:], false) // the rest of the decoder stream
	x.add(ToClient, 0, 200, resp0[200:], false)
	x.add(ToClient, 0, 0, resp0[:100], false) // a retransmission: nothing new
	x.add(ToClient, 4, 0, resp4, false)
	x.add(ToClient, 0, uint64(len(resp0)), nil, true) // FIN alone, after all data
	x.add(ToClient, 4, uint64(len(resp4)), nil, true)
	return x, map[string][]byte{"cCtl": cCtl, "cEnc": cEnc, "sCtl": sCtl, "sEnc": sEnc, "req0": req0, "req4": req4, "resp0": resp0, "resp4": resp4}
}

func TestH3ConnSeedsFromSyntheticTrace(t *testing.T) {
	x, s := syntheticTrace()
	seeds, err := BuildH3Conn("aioquic_curl", x.frames)
	if err != nil {
		t.Fatal(err)
	}
	if len(seeds) != 2 || seeds[0].Side != SideClient || seeds[1].Side != SideServer {
		t.Fatalf("seeds %+v", seeds)
	}
	client, server := seeds[0], seeds[1]

	// The client is fed the server's streams; its setup has its own SETTINGS (what the server's
	// encoder obeyed) and the server's table capacity for its own encoder.
	rp, err := replayH3Conn(client.Encode())
	if err != nil {
		t.Fatalf("client seed: %v\n%x", err, client.Encode())
	}
	if rp.sides[1] != nil || !reflect.DeepEqual(*rp.sides[0], H3Setup{MaxTableCapacity: 4096, BlockedStreams: 16, EncoderTableCapacity: 1024, MaxFieldSectionSize: 16384}) {
		t.Errorf("client setup %+v %+v", rp.sides[0], rp.sides[1])
	}
	wantFed := map[uint64]fedStream{
		3:  {s["sCtl"], false},
		7:  {s["sEnc"], false},
		11: {[]byte{0x03}, false}, // the Section Acknowledgment is left out
		0:  {s["resp0"], true},
		4:  {s["resp4"], true},
	}
	checkFed(t, "client", rp, wantFed)
	wantLog := []string{"drain",
		"request 0", "drain", // the client's request stream 0 (its first bytes, frame 5)
		"feed 3 " + fmt.Sprint(len(s["sCtl"])), "drain", "feed 7 4", "drain",
		"request 4", "drain",
		"feed 11 1", "drain", "feed 0 " + fmt.Sprint(len(s["resp0"])), "drain", "feed 4 " + fmt.Sprint(len(s["resp4"])), "drain",
		"feed 0 0 fin", "drain", "feed 4 0 fin", "drain"}
	if !reflect.DeepEqual(rp.log, wantLog) {
		t.Errorf("client ops\n got %q\nwant %q", rp.log, wantLog)
	}
	// Stream 0 in one feed: its first 200 bytes and the rest of the next delivery.
	if client.Dropped != 1 || client.Cap != -1 || client.Cut != 0 || client.Streams != 5 || client.NoSettings || client.Renumbered {
		t.Errorf("client %+v", client)
	}

	rp, err = replayH3Conn(server.Encode())
	if err != nil {
		t.Fatalf("server seed: %v", err)
	}
	if rp.sides[0] != nil || !reflect.DeepEqual(*rp.sides[1], H3Setup{Flags: 1, MaxTableCapacity: 1024, BlockedStreams: 8, EncoderTableCapacity: 4096}) {
		t.Errorf("server setup %+v", rp.sides[1])
	}
	checkFed(t, "server", rp, map[uint64]fedStream{
		2:  {s["cCtl"], false},
		6:  {s["cEnc"], false},
		10: {[]byte{0x03, 0x44}, false}, // type, Stream Cancellation 4; the acknowledgment and the increment are left out
		0:  {s["req0"], true},
		4:  {s["req4"], true},
	})
	wantLog = []string{"drain",
		"feed 2 " + fmt.Sprint(len(s["cCtl"])), "drain", "feed 6 " + fmt.Sprint(len(s["cEnc"])), "drain", "feed 10 1", "drain",
		"feed 0 " + fmt.Sprint(len(s["req0"])) + " fin", "drain", // req0's two frames: the end waited for the start
		"feed 4 " + fmt.Sprint(len(s["req4"])) + " fin", "drain",
		"response 0", "drain", "feed 10 1", "drain", "response 4", "drain"}
	if !reflect.DeepEqual(rp.log, wantLog) {
		t.Errorf("server ops\n got %q\nwant %q", rp.log, wantLog)
	}
	if server.Dropped != 2 {
		t.Errorf("server dropped %d", server.Dropped)
	}
	if !regexp.MustCompile(`^trace-aioquic_curl-server-[0-9a-f]{8}$`).MatchString(server.Name("aioquic_curl")) {
		t.Errorf("name %s", server.Name("aioquic_curl"))
	}
}

func checkFed(t *testing.T, who string, rp *h3Replay, want map[uint64]fedStream) {
	t.Helper()
	if len(rp.fed) != len(want) {
		t.Errorf("%s: fed streams %v, want %d", who, keys(rp.fed), len(want))
	}
	for id, w := range want {
		g := rp.fed[id]
		if g == nil || !bytes.Equal(g.data, w.data) || g.fin != w.fin {
			t.Errorf("%s: stream %d: got %+v, want %x fin %v", who, id, g, w.data, w.fin)
		}
	}
}

func keys(m map[uint64]*fedStream) []uint64 {
	var k []uint64
	for id := range m {
		k = append(k, id)
	}
	return k
}

// The layout byte by byte (the comment at the top of harness.c, run_op() cases 0, 2, 4, 5).
func TestH3ConnEncodeGolden(t *testing.T) {
	c := &H3ConnSeed{Side: SideClient, Setup: H3Setup{Flags: 2, MaxTableCapacity: 4096, BlockedStreams: 16, EncoderTableCapacity: 300, MaxFieldSectionSize: 0x1234},
		Ops: []H3Op{{Kind: OpDrain}, {Kind: OpRequest}, {Kind: OpFeed, Stream: 3, Data: []byte{0x00, 0x04, 0x00}},
			{Kind: OpFeed, Stream: 0, Data: bytes.Repeat([]byte{7}, 300), Fin: true}}}
	want := unhex(t, `01  02 1000 10 012c 1234
		02 00   04 00 00   00 80 03 00 000400   00 00 ff012c 01`)
	want = append(want, bytes.Repeat([]byte{7}, 300)...)
	if got := c.Encode(); !bytes.Equal(got, want) {
		t.Errorf("client:\n got %x\nwant %x", got, want)
	}
	s := &H3ConnSeed{Side: SideServer, Setup: H3Setup{MaxTableCapacity: 1}, Ops: []H3Op{{Kind: OpFeed, Stream: 10, Data: []byte{3}}, {Kind: OpResponse, Stream: 8}, {Kind: OpDrain}}}
	if got, want := s.Encode(), unhex(t, "02 00 0001 00 0000 0000 00  10 82 01 00 03  15 02 00 01 04  12 00"); !bytes.Equal(got, want) {
		t.Errorf("server:\n got %x\nwant %x", got, want)
	}
}

// Bad stream sets: each is an error naming the cell and what is wrong; nothing is built.
func TestH3ConnRejectsTracesTheHarnessCannotBeFed(t *testing.T) {
	hdr := h3frame(FrameHeaders, []byte{0, 0, 0xd1})
	many := &tr{}
	for i := uint64(0); i < 65; i++ {
		many.add(ToServer, 1000+4*i, 0, hdr, true)
	}
	for _, c := range []struct {
		name string
		add  func(x *tr)
		want string
	}{
		{"data after FIN", func(x *tr) { x.add(ToClient, 8, 0, hdr, true); x.add(ToClient, 8, 3, []byte{1, 2, 3, 4}, false) }, "conn 0 s2c stream 8: data up to offset 7 after FIN at 5"},
		{"FIN before data beyond it", func(x *tr) { x.add(ToClient, 12, 10, []byte{1}, false); x.add(ToClient, 12, 0, hdr, true) }, "s2c stream 12: data up to offset 11 after FIN at 5"},
		{"two final sizes", func(x *tr) { x.add(ToServer, 8, 0, hdr, true); x.add(ToServer, 8, 0, hdr[:2], true) }, "c2s stream 8: FIN at 2 after a FIN at 5"},
		{"server bidi", func(x *tr) { x.add(ToClient, 1, 0, hdr, false) }, "stream 1: a server-initiated bidirectional stream"},
		{"server bytes on a client uni stream", func(x *tr) { x.add(ToClient, 2, 0, []byte{0}, false) }, "s2c stream 2: server bytes on a client-initiated unidirectional stream"},
		{"client bytes on a server uni stream", func(x *tr) { x.add(ToServer, 7, 0, []byte{2}, false) }, "c2s stream 7: client bytes on a server-initiated unidirectional stream"},
		{"stream id out of range", func(x *tr) { x.frames = many.frames }, "conn 0: stream 1256: the 65-th stream of its kind, the harness names only 64 (stream ids below 256)"},
	} {
		x, _ := syntheticTrace()
		c.add(x)
		seeds, err := BuildH3Conn("ngtcp2_quic-go", x.frames)
		var he *H3ConnError
		if err == nil || !errors.As(err, &he) || he.Cell != "ngtcp2_quic-go" || !strings.HasPrefix(err.Error(), "ngtcp2_quic-go: nghttp3-h3-conn: ") ||
			!strings.Contains(err.Error(), c.want) || seeds != nil {
			t.Errorf("%s: %v (seeds %d), want an error naming the cell with %q", c.name, err, len(seeds), c.want)
		}
	}
}

// Ids beyond the harness's range are renumbered per kind in id order; the Stream Cancellation
// follows its stream.
func TestH3ConnRenumbersStreams(t *testing.T) {
	x := &tr{}
	x.add(ToServer, 1002, 0, cat([]byte{0}, settingsFrame()), false)
	x.add(ToServer, 1010, 0, []byte{0x03, 0x7f, 0xd5, 0x02, 0x03}, false) // Stream Cancellation 404 (63 + 0x55 + 2<<7), Insert Count Increment 3
	x.add(ToServer, 404, 0, h3frame(FrameHeaders, []byte{0, 0, 0xd1}), true)
	x.add(ToServer, 400, 0, h3frame(FrameHeaders, []byte{0, 0, 0xd1}), true)
	x.add(ToClient, 400, 0, h3frame(FrameHeaders, []byte{0, 0, 0xd9}), true)
	seeds, err := BuildH3Conn("c", x.frames)
	if err != nil || len(seeds) != 2 || !seeds[0].Renumbered {
		t.Fatalf("%v %+v", err, seeds)
	}
	rp, err := replayH3Conn(seeds[1].Encode())
	if err != nil {
		t.Fatal(err)
	}
	// 1002, 1010 -> 2, 6 (client uni); 400, 404 -> 0, 4; the cancellation of 404 names 4.
	if got := rp.fed[6]; got == nil || !bytes.Equal(got.data, []byte{0x03, 0x44}) || rp.fed[2] == nil || !rp.fed[0].fin || !rp.fed[4].fin {
		t.Errorf("fed %+v", rp.fed)
	}
	if seeds[1].Dropped != 1 {
		t.Errorf("dropped %d (the Insert Count Increment 3)", seeds[1].Dropped)
	}
	rp, err = replayH3Conn(seeds[0].Encode()) // the client opens 0 and 4 before the response on 0
	if err != nil || !reflect.DeepEqual(rp.log[:5], []string{"drain", "request 0", "request 4", "drain", "feed 0 5 fin"}) {
		t.Errorf("client: %v %q", err, rp.log)
	}
}

// Long responses: the seed stays within max_len; streams up to the common cap are whole (FIN), longer
// ones are fed through their HEADERS frame and up to the cap, without FIN.
func TestH3ConnCapsRequestStreamsToMaxLen(t *testing.T) {
	x := &tr{}
	hdrs := h3frame(FrameHeaders, append([]byte{0, 0}, bytes.Repeat([]byte{0x5f}, 200)...))
	body := func(n int) []byte { return cat(hdrs, h3frame(FrameData, bytes.Repeat([]byte{'b'}, n))) }
	real := map[uint64][]byte{0: body(100000), 4: body(2000), 8: body(50000), 12: body(10)}
	for _, id := range []uint64{0, 4, 8, 12} {
		x.add(ToServer, id, 0, h3frame(FrameHeaders, []byte{0, 0, 0xd1}), true)
	}
	for _, id := range []uint64{0, 4, 8, 12} { // in 1200-byte frames, interleaved
		b := real[id]
		for off := 0; off < len(b); off += 1200 {
			end := min(off+1200, len(b))
			x.add(ToClient, id, uint64(off), b[off:end], end == len(b))
		}
	}
	seeds, err := BuildH3Conn("c", x.frames)
	if err != nil {
		t.Fatal(err)
	}
	c := seeds[0]
	enc := c.Encode()
	if len(enc) > H3ConnMaxLen || len(enc) < H3ConnMaxLen-100 {
		t.Errorf("seed length %d, want just below %d", len(enc), H3ConnMaxLen)
	}
	rp, err := replayH3Conn(enc)
	if err != nil {
		t.Fatal(err)
	}
	if c.Cut != 2 || c.Cap < 2000 || c.Truncated != 0 {
		t.Errorf("cap %d, cut %d, truncated %d", c.Cap, c.Cut, c.Truncated)
	}
	for id, b := range real {
		f := rp.fed[id]
		whole := len(b) <= c.Cap
		if f == nil || !bytes.HasPrefix(b, f.data) || f.fin != whole || (whole && len(f.data) != len(b)) || (!whole && len(f.data) != c.Cap) {
			t.Errorf("stream %d (%d bytes): fed %d fin %v", id, len(b), len(f.data), f.fin)
		}
	}
	// A cap below a HEADERS frame still feeds the whole frame.
	if c.Cap < len(hdrs) {
		t.Errorf("cap %d below the HEADERS frame", c.Cap)
	}
}

// The cap never cuts a HEADERS frame: with room for little else, each stream is fed through it.
func TestH3ConnCapKeepsHeadersFrames(t *testing.T) {
	x := &tr{}
	big := h3frame(FrameHeaders, append([]byte{0, 0}, bytes.Repeat([]byte{0x5f}, 5000)...))
	for _, id := range []uint64{0, 4, 8} {
		x.add(ToServer, id, 0, h3frame(FrameHeaders, []byte{0, 0, 0xd1}), true)
		x.add(ToClient, id, 0, cat(big, h3frame(FrameData, bytes.Repeat([]byte{'b'}, 20000))), true)
	}
	seeds, err := BuildH3Conn("c", x.frames)
	if err != nil {
		t.Fatal(err)
	}
	rp, err := replayH3Conn(seeds[0].Encode())
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []uint64{0, 4, 8} {
		if f := rp.fed[id]; f == nil || len(f.data) < len(big) || f.fin {
			t.Errorf("stream %d: %+v", id, f)
		}
	}
}
