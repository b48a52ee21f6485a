package wtcheck

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/quic-go/qpack"

	"github.com/wirelab/wirelab/internal/quictrace"
	"github.com/wirelab/wirelab/internal/quicvarint"
)

// Synthetic WebTransport traces. A wire is a capture written the way tshark prints it (-T json,
// the layers quictrace.Parse reads: frame, ip, udp, quic, http3), and trace() runs
// quictrace.Parse over it: every H3Stream is then filled by quictrace's own reassembly and
// parseH3Stream (UniType, WTSession, WTPayload, Raw, Frames, FrameTypes, Fin, ...), and each
// HEADERS frame (real QPACK, static table and literals) gets its fields the way tshark's decoded
// sections attach to it. good() is a correct connection of a case; each test changes the one
// thing its misbehaviour is about.

const (
	testEndpoint = "sunny-otter"
	clientIP     = "198.18.0.100"
	serverIP     = "198.18.1.100"
)

// wire is a synthetic capture, one tshark JSON element per UDP datagram.
type wire struct {
	packets []any
	conn    int                // the QUIC connection (quic.connection.number) of what is added next
	opened  map[[2]int64]int64 // (conn, stream id's low two bits) -> streams opened
}

func newWire() *wire { return &wire{opened: map[[2]int64]int64{}} }

// dirOf is the direction a role's bytes travel.
func dirOf(role string) quictrace.Direction {
	if role == "server" {
		return quictrace.ServerToClient
	}
	return quictrace.ClientToServer
}

func otherRole(role string) string {
	if role == "server" {
		return "client"
	}
	return "server"
}

// datagram adds one UDP datagram holding quic (a QUIC packet's JSON) and, when h3 is not
// empty, an http3 layer; it returns the datagram's frame number.
func (w *wire) datagram(dir quictrace.Direction, quic map[string]any, h3 []any) int {
	n := len(w.packets) + 1
	client, server := strconv.Itoa(50000+w.conn), strconv.Itoa(quictrace.ServerPort)
	ip := map[string]any{"ip.src": clientIP, "ip.dst": serverIP}
	udp := map[string]any{"udp.srcport": client, "udp.dstport": server, "udp.length": "1208"}
	if dir == quictrace.ServerToClient {
		ip = map[string]any{"ip.src": serverIP, "ip.dst": clientIP}
		udp = map[string]any{"udp.srcport": server, "udp.dstport": client, "udp.length": "1208"}
	}
	quic["quic.connection.number"] = strconv.Itoa(w.conn)
	layers := map[string]any{
		"frame": map[string]any{"frame.number": strconv.Itoa(n), "frame.time_epoch": fmt.Sprintf("1700000000.%06d", n)},
		"ip":    ip,
		"udp":   udp,
		"quic":  quic,
	}
	if len(h3) > 0 {
		layers["http3"] = h3
	}
	w.packets = append(w.packets, map[string]any{"_source": map[string]any{"layers": layers}})
	return n
}

// initial adds an Initial packet of dir whose SCID is scid (the server's SCIDs count the
// handshakes, quictrace.Trace.Handshakes).
func (w *wire) initial(dir quictrace.Direction, scid string) {
	w.datagram(dir, map[string]any{
		"quic.header_form":      "1",
		"quic.version":          "0x00000001",
		"quic.long.packet_type": "0",
		"quic.scid":             scid,
		"quic.dcid":             "0a:0b:0c:0d",
		"quic.frame":            []any{map[string]any{"quic.frame_type": "6", "quic.crypto.offset": "0", "quic.crypto.length": "100"}},
	}, nil)
}

// handshake adds the client's and the server's Initial of one handshake.
func (w *wire) handshake(scid string) {
	w.initial(quictrace.ClientToServer, "c0:c1:c2:c3")
	w.initial(quictrace.ServerToClient, scid)
}

func colonHex(b []byte) string {
	h := hex.EncodeToString(b)
	var out strings.Builder
	for i := 0; i < len(h); i += 2 {
		if i > 0 {
			out.WriteByte(':')
		}
		out.WriteString(h[i : i+2])
	}
	return out.String()
}

// short adds a 1-RTT packet carrying frames.
func (w *wire) short(dir quictrace.Direction, h3 []any, frames ...any) int {
	return w.datagram(dir, map[string]any{"quic.header_form": "0", "quic.dcid": "0a:0b:0c:0d", "quic.frame": frames}, h3)
}

// streamAt sends data at offset off of stream id in one STREAM frame, with FIN when fin.
func (w *wire) streamAt(dir quictrace.Direction, id int64, off int, data []byte, fin bool, h3 ...any) {
	typ := quictrace.FrameStreamMin | 0x04 | 0x02 // OFF and LEN
	if fin {
		typ |= 0x01
	}
	w.short(dir, h3, map[string]any{
		"quic.frame_type":       strconv.Itoa(typ),
		"quic.stream.stream_id": strconv.FormatInt(id, 10),
		"quic.stream.offset":    strconv.Itoa(off),
		"quic.stream.length":    strconv.Itoa(len(data)),
		"quic.stream_data":      colonHex(data),
	})
}

// stream sends the whole of a stream's data in one STREAM frame.
func (w *wire) stream(dir quictrace.Direction, id int64, data []byte, fin bool) {
	w.streamAt(dir, id, 0, data, fin)
}

// open is the id of the next stream dir opens on the current connection.
func (w *wire) open(dir quictrace.Direction, uni bool) int64 {
	var bits int64
	if dir == quictrace.ServerToClient {
		bits |= 1
	}
	if uni {
		bits |= 2
	}
	k := [2]int64{int64(w.conn), bits}
	id := w.opened[k]*4 + bits
	w.opened[k]++
	return id
}

// uni opens a uni stream of dir and sends data on it.
func (w *wire) uni(dir quictrace.Direction, data []byte, fin bool) int64 {
	id := w.open(dir, true)
	w.stream(dir, id, data, fin)
	return id
}

// bidi opens a bidi stream of dir and sends data on it.
func (w *wire) bidi(dir quictrace.Direction, data []byte, fin bool) int64 {
	id := w.open(dir, false)
	w.stream(dir, id, data, fin)
	return id
}

// dgram sends one QUIC DATAGRAM frame (type 0x31, with Length) carrying payload.
func (w *wire) dgram(dir quictrace.Direction, payload []byte) {
	w.short(dir, nil, map[string]any{"quic.frame_type": "49", "quic.dg.length": strconv.Itoa(len(payload)), "quic.dg": colonHex(payload)})
}

// h3Frame is an HTTP/3 frame: type, length, payload.
func h3Frame(typ uint64, payload []byte) []byte {
	b := quicvarint.Append(nil, typ)
	b = quicvarint.Append(b, uint64(len(payload)))
	return append(b, payload...)
}

// settingsPayload is a SETTINGS frame's payload: id/value pairs.
func settingsPayload(kv ...uint64) []byte {
	var b []byte
	for _, v := range kv {
		b = quicvarint.Append(b, v)
	}
	return b
}

// qpackSection encodes fields with QPACK's static table and literals (no dynamic table).
func qpackSection(fields []quictrace.HeaderField) []byte {
	var buf bytes.Buffer
	enc := qpack.NewEncoder(&buf)
	for _, f := range fields {
		if err := enc.WriteField(qpack.HeaderField{Name: f.Name, Value: f.Value}); err != nil {
			panic(err)
		}
	}
	return buf.Bytes()
}

// headers sends a HEADERS frame with fields on stream id (no FIN: a CONNECT stream stays open
// for the session) and the http3 layer tshark prints for it, decoded.
func (w *wire) headers(dir quictrace.Direction, id int64, fields []quictrace.HeaderField) {
	payload := qpackSection(fields)
	var decoded []any
	for _, f := range fields {
		decoded = append(decoded, map[string]any{"http3.header.header.name": f.Name, "http3.headers.header.value": f.Value})
	}
	section := map[string]any{
		"http3.frame_type":     "0x0000000000000001",
		"http3.frame_length":   strconv.Itoa(len(payload)),
		"http3.frame_payload":  colonHex(payload),
		"http3.headers.header": decoded,
	}
	w.streamAt(dir, id, 0, h3Frame(quictrace.H3FrameHeaders, payload), false, section)
}

// control opens dir's control stream: type 0x00, then a SETTINGS frame with payload (none when
// payload is nil).
func (w *wire) control(dir quictrace.Direction, payload []byte) {
	b := quicvarint.Append(nil, quictrace.H3StreamControl)
	if payload != nil {
		b = append(b, h3Frame(quictrace.H3FrameSettings, payload)...)
	}
	w.uni(dir, b, false)
}

// wtUni is a WebTransport uni stream's bytes: type 0x54, the session id, payload.
func wtUni(session uint64, payload string) []byte {
	b := quicvarint.Append(nil, quictrace.H3StreamWebTransport)
	b = quicvarint.Append(b, session)
	return append(b, payload...)
}

// wtBidi is a WebTransport bidi stream's opening bytes: signal 0x41, the session id, payload.
func wtBidi(session uint64, payload string) []byte {
	b := quicvarint.Append(nil, quictrace.H3WebTransportSignal)
	b = quicvarint.Append(b, session)
	return append(b, payload...)
}

// wtDatagram is an HTTP datagram of session: the quarter stream id, payload.
func wtDatagram(session uint64, payload string) []byte {
	return append(quicvarint.Append(nil, session/4), payload...)
}

// trace runs quictrace.Parse over the capture.
func (w *wire) trace(t *testing.T) *quictrace.Trace {
	t.Helper()
	b, err := json.Marshal(w.packets)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := quictrace.Parse(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// fixture is one case's connection: the case's expectations and what the wire carries.
type fixture struct {
	Evidence // Trace is filled by evidence
	// clientSettings, serverSettings: each side's SETTINGS payload (nil: its control stream
	// carries no SETTINGS frame).
	clientSettings, serverSettings []byte
	// request, response: the session's CONNECT on client bidi stream 0 and its answer (nil: none).
	request, response []quictrace.HeaderField
	// transfer moves one file of the case within session (nil: none moved).
	transfer func(w *wire, session uint64, name string, content []byte)
	// extra: more traffic after the transfers.
	extra []func(w *wire)
}

func ptr(s string) *string { return &s }

// sfList is a Structured Field List of Strings (RFC 9651 §3.1, §3.3.3).
func sfList(items ...string) string {
	var q []string
	for _, s := range items {
		q = append(q, strconv.Quote(s)) // the test names need no escapes beyond Go's
	}
	return strings.Join(q, ", ")
}

// testFiles are a case's files; data.bin starts with the bytes of the WebTransport signal
// 0x41 (as a varint, 0x40 0x41) and holds every byte value, so an answer's raw bytes look like a
// WebTransport stream to an HTTP/3 parser.
func testFiles() map[string][]byte {
	bin := []byte{0x40, 0x41}
	for i := range 598 {
		bin = append(bin, byte(i))
	}
	return map[string][]byte{"hello.txt": []byte("hello, webtransport\n"), "data.bin": bin}
}

// good is a correct connection of a case: stream "" is the handshake case (protocol
// negotiation, no files); otherwise the files move on stream, requested by requester.
func good(stream, requester string) *fixture {
	f := &fixture{Evidence: Evidence{Endpoint: testEndpoint, Stream: stream, Requester: requester}}
	if stream == "" {
		// upstream's handshake: two shared protocols in swapped order, so only the client's
		// preference decides ("p-first"; the server's own would be "p-second").
		f.ClientProtocols = []string{"c-only", "p-first", "p-second"}
		f.ServerProtocols = []string{"p-second", "s-only", "p-first"}
	} else {
		f.ClientProtocols, f.ServerProtocols = []string{"p-one"}, []string{"p-one"}
		f.Files = testFiles()
		f.transfer = transferOn(stream, requester)
	}
	want := ExpectedProtocol(f.ClientProtocols, f.ServerProtocols)
	f.ClientNegotiated, f.ServerNegotiated = ptr(want+"\n"), ptr(want)
	// QPACK_MAX_TABLE_CAPACITY 0, a reserved (grease) setting, H3_DATAGRAM, draft-15's WT_ENABLED;
	// the server also enables extended CONNECT.
	f.clientSettings = settingsPayload(0x01, 0, 0x21+0x1f*3, 7, settingH3Datagram, 1, 0x2c7cf000, 1)
	f.serverSettings = settingsPayload(settingEnableConnectProtocol, 1, settingH3Datagram, 1, 0x2c7cf000, 1, 0x14e9cd29, 16)
	f.request = []quictrace.HeaderField{
		{Name: ":method", Value: "CONNECT"},
		{Name: ":protocol", Value: "webtransport-h3"},
		{Name: ":scheme", Value: "https"},
		{Name: ":authority", Value: "server4:443"},
		{Name: ":path", Value: "/" + testEndpoint},
		{Name: "wt-available-protocols", Value: sfList(f.ClientProtocols...)},
	}
	f.response = []quictrace.HeaderField{{Name: ":status", Value: "200"}, {Name: "wt-protocol", Value: sfList(want)}}
	return f
}

// transferOn moves a file the way upstream's WebTransport cases do: the requester sends
// "GET name" (in *-send the server names endpoint/file, as REQUESTS gives it), the other side
// answers with "PUSH name\n" + the bytes on a uni stream or a datagram, or with the bare bytes
// on the request's bidi stream.
func transferOn(stream, requester string) func(w *wire, session uint64, name string, content []byte) {
	req, resp := dirOf(requester), dirOf(otherRole(requester))
	get := func(name string) string {
		if requester == "server" {
			return "GET " + testEndpoint + "/" + name
		}
		return "GET " + name
	}
	return func(w *wire, session uint64, name string, content []byte) {
		push := "PUSH " + name + "\n" + string(content)
		switch stream {
		case "unidirectional":
			w.uni(req, wtUni(session, get(name)), true)
			w.uni(resp, wtUni(session, push), true)
		case "bidirectional":
			id := w.bidi(req, wtBidi(session, get(name)), true)
			w.stream(resp, id, content, true)
		case "datagram":
			w.dgram(req, wtDatagram(session, get(name)))
			w.dgram(resp, wtDatagram(session, push))
		}
	}
}

// sessionID is the good fixture's session: the CONNECT on client bidi stream 0.
const sessionID = 0

// wire writes the fixture's connection: the handshake, both control streams and QPACK streams,
// the CONNECT and its answer, the transfers (files in name order), then extra.
func (f *fixture) wire() *wire {
	w := newWire()
	w.handshake("5e:55:10:01")
	w.control(quictrace.ClientToServer, f.clientSettings)
	w.control(quictrace.ServerToClient, f.serverSettings)
	for _, dir := range []quictrace.Direction{quictrace.ClientToServer, quictrace.ServerToClient} {
		w.uni(dir, quicvarint.Append(nil, quictrace.H3StreamQPACKEncoder), false)
		w.uni(dir, quicvarint.Append(nil, quictrace.H3StreamQPACKDecoder), false)
	}
	sid := w.open(quictrace.ClientToServer, false)
	if f.request != nil {
		w.headers(quictrace.ClientToServer, sid, f.request)
	}
	if f.response != nil {
		w.headers(quictrace.ServerToClient, sid, f.response)
	}
	if f.transfer != nil {
		var names []string
		for n := range f.Files {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			f.transfer(w, uint64(sid), n, f.Files[n])
		}
	}
	for _, x := range f.extra {
		x(w)
	}
	return w
}

// evidence is what the checks read of the fixture.
func (f *fixture) evidence(t *testing.T) *Evidence {
	t.Helper()
	e := f.Evidence
	e.Trace = f.wire().trace(t)
	return &e
}

// run runs check c over the fixture.
func (f *fixture) run(t *testing.T, c Check) Result {
	t.Helper()
	return c.Run(f.evidence(t))
}

// with returns a copy of fields with name set to value ("" removes it; appended when absent).
func with(fields []quictrace.HeaderField, name, value string) []quictrace.HeaderField {
	var out []quictrace.HeaderField
	found := false
	for _, h := range fields {
		if h.Name == name {
			found = true
			if value == "" {
				continue
			}
			h.Value = value
		}
		out = append(out, h)
	}
	if !found && value != "" {
		out = append(out, quictrace.HeaderField{Name: name, Value: value})
	}
	return out
}

func wantFail(t *testing.T, r Result, because string) {
	t.Helper()
	if r.OK() || !strings.Contains(r.Reason, because) {
		t.Errorf("want a failure mentioning %q, got %s: %s", because, r.Verdict, r.Reason)
	}
}

func wantPass(t *testing.T, r Result) {
	t.Helper()
	if !r.OK() {
		t.Errorf("want a pass, got %s: %s", r.Verdict, r.Reason)
	}
}

// testCases are the transports and requesters of upstream's seven cases.
var testCases = []struct{ stream, requester string }{
	{"", "client"},
	{"unidirectional", "client"}, {"unidirectional", "server"},
	{"bidirectional", "client"}, {"bidirectional", "server"},
	{"datagram", "client"}, {"datagram", "server"},
}

func caseName(stream, requester string) string {
	if stream == "" {
		return "handshake"
	}
	return stream + "-" + requester
}

// The fixture's streams are what quictrace makes of the wire: typed, bound to the session,
// finished, the CONNECT's and the response's fields decoded.
func TestFixtureParses(t *testing.T) {
	e := good("unidirectional", "client").evidence(t)
	tr := e.Trace
	if hs := tr.Handshakes(); len(hs) != 1 || hs[0] != "5e551001" {
		t.Errorf("handshakes %v", hs)
	}
	var control, wt int
	for _, s := range tr.H3Streams {
		switch {
		case s.Uni && s.UniType != nil && *s.UniType == quictrace.H3StreamControl:
			control++
			if len(s.Frames) != 1 || s.Frames[0].Type != quictrace.H3FrameSettings {
				t.Errorf("control stream %d: frames %+v", s.ID, s.Frames)
			}
		case s.Uni && s.UniType != nil && *s.UniType == quictrace.H3StreamWebTransport:
			wt++
			if s.WTSession == nil || *s.WTSession != sessionID || !s.Fin || s.Truncated {
				t.Errorf("WebTransport stream %d: %+v", s.ID, s)
			}
			if s.Dir == quictrace.ClientToServer && !strings.HasPrefix(string(s.WTPayload), "GET ") ||
				s.Dir == quictrace.ServerToClient && !strings.HasPrefix(string(s.WTPayload), "PUSH ") {
				t.Errorf("WebTransport stream %d (%s): payload %q", s.ID, s.Dir, s.WTPayload)
			}
		}
	}
	if control != 2 || wt != 4 {
		t.Errorf("%d control and %d WebTransport uni streams, want 2 and 4", control, wt)
	}
	ss := sessions(tr)
	if len(ss) != 1 || ss[0].ID != sessionID || quictrace.Header(ss[0].Request, ":protocol") != "webtransport-h3" ||
		quictrace.Header(ss[0].Response, ":status") != "200" || ss[0].Path() != testEndpoint {
		t.Fatalf("sessions %+v", ss)
	}

	// bidi: the requester's side carries the signal, the answer only the file's bytes.
	tr = good("bidirectional", "server").evidence(t).Trace
	var sides int
	for _, s := range tr.H3Streams {
		if s.Uni || s.ID == sessionID {
			continue
		}
		sides++
		if s.ClientStarted || s.ID&3 != 1 {
			t.Errorf("stream %d: the server opens the bidi streams", s.ID)
		}
		if s.Dir == quictrace.ServerToClient && (s.WTSession == nil || len(s.FrameTypes) != 1 || s.FrameTypes[0] != quictrace.H3WebTransportSignal) {
			t.Errorf("request side of %d: %+v", s.ID, s)
		}
		if s.Dir == quictrace.ClientToServer && !s.Fin {
			t.Errorf("answer side of %d has no FIN", s.ID)
		}
	}
	if sides != 4 {
		t.Errorf("%d sides of WebTransport bidi streams, want 4", sides)
	}

	tr = good("datagram", "client").evidence(t).Trace
	if len(tr.H3Datagrams) != 4 || tr.H3Datagrams[0].Dir != quictrace.ClientToServer || string(tr.H3Datagrams[0].Data[1:]) != "GET data.bin" {
		t.Errorf("datagrams %+v", tr.H3Datagrams)
	}
}

// Every check passes every case's good connection.
func TestGoodConnectionPassesEveryCheck(t *testing.T) {
	for _, c := range testCases {
		t.Run(caseName(c.stream, c.requester), func(t *testing.T) {
			e := good(c.stream, c.requester).evidence(t)
			for _, name := range Names() {
				chk, _ := Lookup(name)
				if name == "transfer" && c.stream == "" {
					continue // the handshake case moves no files
				}
				if r := chk.Run(e); !r.OK() {
					t.Errorf("%s: %s", name, r.Reason)
				}
			}
		})
	}
}

func TestCatalog(t *testing.T) {
	want := []string{"datagrams", "extended-connect", "one-connection", "protocol", "session-streams", "settings", "transfer"}
	if got := Names(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Names() = %v, want %v", got, want)
	}
	for _, n := range want {
		c, ok := Lookup(n)
		if !ok || c.Name != n || c.Run == nil || c.Requirement == "" || c.Description == "" {
			t.Errorf("%s: %+v", n, c)
		}
		if r := c.Run(good("datagram", "client").evidence(t)); r.Check != n {
			t.Errorf("%s's result names %q", n, r.Check)
		}
	}
	if _, ok := Lookup("files"); ok {
		t.Error(`"files" is wtsuite's check, not a trace check`)
	}
}
