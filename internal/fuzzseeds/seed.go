package fuzzseeds

import (
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"sort"
)

// Dir is the direction bytes travel; a direction's seed is what the receiving side's QPACK
// decoder sees.
type Dir int

const (
	ToServer Dir = iota // client -> server: the server's decoder (request headers)
	ToClient            // server -> client: the client's decoder (response headers)
)

func (d Dir) String() string {
	if d == ToServer {
		return "c2s"
	}
	return "s2c"
}

// Other is the opposite direction.
func (d Dir) Other() Dir { return 1 - d }

// EncoderStreamID is the record stream id of the QPACK encoder stream (fuzz/common/records.h).
const EncoderStreamID = 0

// RecordStreamID maps a request stream id to a record stream id: the harness passes every record
// id other than 0 to nghttp3 as the section's stream id, so the client's first bidirectional
// stream (0) would read as the encoder stream. Shifting every request stream by 4 keeps the ids
// distinct from 0 and from each other and still client-initiated bidirectional ones.
func RecordStreamID(requestStream uint64) uint64 { return requestStream + 4 }

// Record is one fuzz/common/records.h record.
type Record struct {
	StreamID uint64
	Data     []byte
}

// Seed is one nghttp3-qpack-decoder input: the decoder's limits (the receiving side's SETTINGS)
// and the records in trace order.
type Seed struct {
	Conn       int
	Dir        Dir
	Capacity   uint16 // SETTINGS_QPACK_MAX_TABLE_CAPACITY of the receiving side, clamped to u16
	MaxBlocked uint8  // SETTINGS_QPACK_BLOCKED_STREAMS of the receiving side, clamped to u8
	Knobs      uint8  // 0: plain feeds, no allocation failures
	Records    []Record

	EncoderBytes int // totals, for the report
	Sections     int
	NoSettings   bool // the receiving side's SETTINGS were not in the trace: limits are the defaults (0)
}

// SetLimits sets the preamble from the receiving side's SETTINGS (absent = 0, RFC 9204 §5).
func (s *Seed) SetLimits(settings map[uint64]uint64) {
	c, b := settings[SettingQPACKMaxTableCapacity], settings[SettingQPACKBlockedStreams]
	s.Capacity, s.MaxBlocked = uint16(min(c, 0xffff)), uint8(min(b, 0xff))
}

// Encode writes the records.h layout: u16 BE capacity, u8 max blocked, u8 knobs, then per record
// u64 BE stream id, u32 BE length, data.
func (s *Seed) Encode() []byte {
	n := 4
	for _, r := range s.Records {
		n += 12 + len(r.Data)
	}
	out := make([]byte, 4, n)
	binary.BigEndian.PutUint16(out, s.Capacity)
	out[2], out[3] = s.MaxBlocked, s.Knobs
	for _, r := range s.Records {
		out = binary.BigEndian.AppendUint64(out, r.StreamID)
		out = binary.BigEndian.AppendUint32(out, uint32(len(r.Data)))
		out = append(out, r.Data...)
	}
	return out
}

// Name is the seed's file name: trace-<cell>-<dir>-<first 8 hex digits of the content's SHA-1>.
func (s *Seed) Name(cell string) string {
	h := sha1.Sum(s.Encode())
	return fmt.Sprintf("trace-%s-%s-%s", cell, s.Dir, hex.EncodeToString(h[:])[:8])
}

// StreamFrame is one QUIC STREAM frame of the trace.
type StreamFrame struct {
	Frame    int // frame.number: trace order
	Conn     int // tshark's QUIC connection number
	Dir      Dir
	StreamID uint64
	Offset   uint64
	Data     []byte
	Fin      bool // the frame's FIN bit: Offset + len(Data) is the stream's final size
}

// Stats counts what a cell's trace held.
type Stats struct {
	Frames       int // STREAM frames
	Streams      int // distinct (connection, direction, stream)
	Gaps         int // streams that stopped at a gap
	Partial      int // streams that ended inside a frame (a gap or the capture's end)
	Connections  int
	EncoderBytes [2]int // by Dir
	Sections     [2]int // by Dir
	Malformed    []string
}

// Build reassembles every stream of frames (in trace order: sorted by frame number, frames of
// one packet kept in order), parses HTTP/3 and returns one seed per connection and direction that
// carried at least one field section, sorted by connection then direction.
func Build(frames []StreamFrame) ([]*Seed, Stats) {
	frames = append([]StreamFrame(nil), frames...)
	sort.SliceStable(frames, func(i, j int) bool { return frames[i].Frame < frames[j].Frame })
	type key struct {
		conn int
		dir  Dir
		id   uint64
	}
	type cd struct {
		conn int
		dir  Dir
	}
	var st Stats
	asm := map[key]*Reassembler{}
	parsers := map[key]*H3Stream{}
	var order []key
	seeds := map[cd]*Seed{}
	settings := map[cd]map[uint64]uint64{}
	conns := map[int]bool{}
	seed := func(c cd) *Seed {
		s := seeds[c]
		if s == nil {
			s = &Seed{Conn: c.conn, Dir: c.dir}
			seeds[c] = s
		}
		return s
	}
	for _, f := range frames {
		st.Frames++
		conns[f.Conn] = true
		k := key{f.Conn, f.Dir, f.StreamID}
		r := asm[k]
		if r == nil {
			r = &Reassembler{}
			asm[k], parsers[k] = r, NewH3Stream(f.StreamID)
			order = append(order, k)
		}
		b := r.Add(f.Offset, f.Data)
		if len(b) == 0 {
			continue
		}
		c := cd{f.Conn, f.Dir}
		for _, ev := range parsers[k].Feed(b) {
			switch {
			case ev.Encoder != nil:
				s := seed(c)
				s.Records = append(s.Records, Record{EncoderStreamID, ev.Encoder})
				s.EncoderBytes += len(ev.Encoder)
			case ev.Section != nil:
				s := seed(c)
				s.Records = append(s.Records, Record{RecordStreamID(f.StreamID), ev.Section})
				s.Sections++
			case ev.Settings != nil:
				if settings[c] == nil {
					settings[c] = ev.Settings // only the first SETTINGS counts (RFC 9114 §7.2.4)
				}
			}
		}
	}
	st.Streams, st.Connections = len(order), len(conns)
	for _, k := range order {
		if asm[k].Gap() {
			st.Gaps++
		}
		if parsers[k].Partial() {
			st.Partial++
		}
		if p := parsers[k]; p.Bad != "" {
			st.Malformed = append(st.Malformed, fmt.Sprintf("conn %d %s stream %d: %s", k.conn, k.dir, k.id, p.Bad))
		}
	}
	var out []*Seed
	for c, s := range seeds {
		st.EncoderBytes[c.dir] += s.EncoderBytes
		st.Sections[c.dir] += s.Sections
		if s.Sections == 0 {
			continue // encoder bytes alone decode nothing: not a seed
		}
		// The receiving side's SETTINGS (sent the other way) bound what this encoder may use.
		peer, ok := settings[cd{c.conn, c.dir.Other()}]
		s.SetLimits(peer)
		s.NoSettings = !ok
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Conn != out[j].Conn {
			return out[i].Conn < out[j].Conn
		}
		return out[i].Dir < out[j].Dir
	})
	return out, st
}
