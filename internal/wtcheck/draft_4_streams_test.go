package wtcheck

import (
	"testing"

	"github.com/wirelab/wirelab/internal/quictrace"
	"github.com/wirelab/wirelab/internal/quicvarint"
)

// draft §4.2, §4.3, RFC 9114 §6.1, §6.2: WebTransport streams carry their type or signal and an
// accepted session's id; no uni stream of an unknown type, no other server-opened bidi stream.
func TestSessionStreams(t *testing.T) {
	for _, tc := range []struct{ stream, requester, reason string }{
		{"", "client", "0 uni and 0 bidi WebTransport streams, each bound to an accepted session"},
		{"unidirectional", "client", "4 uni and 0 bidi WebTransport streams"},
		{"unidirectional", "server", "4 uni and 0 bidi WebTransport streams"},
		{"bidirectional", "client", "0 uni and 2 bidi WebTransport streams"},
		{"bidirectional", "server", "0 uni and 2 bidi WebTransport streams"},
		{"datagram", "client", "0 uni and 0 bidi WebTransport streams"},
	} {
		r := good(tc.stream, tc.requester).run(t, sessionStreams)
		if !r.OK() || r.Reason[:len(tc.reason)] != tc.reason {
			t.Errorf("%s: %s: %s, want a pass: %s", caseName(tc.stream, tc.requester), r.Verdict, r.Reason, tc.reason)
		}
	}

	typed := func(typ uint64, payload string) []byte { return append(quicvarint.Append(nil, typ), payload...) }
	s2c, c2s := quictrace.ServerToClient, quictrace.ClientToServer
	for _, tc := range []struct {
		name    string
		send    func(w *wire)
		because string // "" passes
	}{
		{"grease uni type 0x21", func(w *wire) { w.uni(s2c, typed(0x21, "anything"), true) }, ""},
		{"grease uni type 0x21+0x1f", func(w *wire) { w.uni(c2s, typed(0x21+0x1f, "anything"), true) }, ""},
		{"grease uni type 0x21+1000*0x1f", func(w *wire) { w.uni(s2c, typed(0x21+1000*0x1f, "x"), false) }, ""},
		{"a push stream", func(w *wire) { w.uni(s2c, typed(quictrace.H3StreamPush, "\x00"), false) }, ""},
		{"an empty uni stream (FIN only)", func(w *wire) { w.uni(s2c, nil, true) }, ""},
		{"a WebTransport uni stream with no payload", func(w *wire) { w.uni(s2c, wtUni(sessionID, ""), true) }, ""},
		{"a client-opened bidi request", func(w *wire) {
			id := w.open(c2s, false)
			w.headers(c2s, id, []quictrace.HeaderField{{Name: ":method", Value: "GET"}, {Name: ":scheme", Value: "https"}, {Name: ":authority", Value: "server4:443"}, {Name: ":path", Value: "/"}})
		}, ""},
		{"uni type 0x50 carrying PUSH", func(w *wire) { w.uni(s2c, typed(0x50, "PUSH hello.txt\nhello"), true) },
			"server->client uni stream 15 has type 0x50: neither HTTP/3's nor WebTransport's 0x54"},
		{"uni type 0x22 (next to a grease type)", func(w *wire) { w.uni(c2s, typed(0x22, "x"), true) },
			"client->server uni stream 14 has type 0x22"},
		// aioquic_wt.py's untyped-stream: "PUSH ..." with no type and session id, whose first
		// two bytes read as the varint 0x1055.
		{"PUSH on an untyped uni stream", func(w *wire) { w.uni(s2c, []byte("PUSH hello.txt\nhello"), true) },
			"server->client uni stream 15 has type 0x1055"},
		{"a WebTransport uni stream of a session never opened", func(w *wire) { w.uni(s2c, wtUni(4, "PUSH a\nb"), true) },
			"server->client WebTransport stream 15 names session 4, which is no accepted extended CONNECT's stream"},
		{"a WebTransport bidi stream of a session never opened", func(w *wire) { w.bidi(c2s, wtBidi(8, "GET a"), true) },
			"client->server WebTransport stream 4 names session 8"},
		{"a server-opened bidi stream without the signal", func(w *wire) { w.bidi(s2c, []byte("PUSH hello.txt\nhello"), true) },
			"server->client bidi stream 1 starts with 0x1055: neither HEADERS nor the WebTransport signal 0x41"},
		{"a server-opened bidi stream with HEADERS", func(w *wire) {
			w.headers(s2c, w.open(s2c, false), []quictrace.HeaderField{{Name: ":status", Value: "200"}})
		},
			"server->client bidi stream 1 starts with 0x1: neither HEADERS nor the WebTransport signal 0x41"},
		{"a client-opened bidi stream starting with DATA", func(w *wire) { w.bidi(c2s, h3Frame(quictrace.H3FrameData, []byte("GET a")), true) },
			"client->server bidi stream 4 starts with 0x0: neither HEADERS nor the WebTransport signal 0x41"},
		{"a WebTransport uni stream ending after its type", func(w *wire) { w.uni(c2s, wtUni(sessionID, "")[:2], true) },
			"client->server WebTransport stream 14 ends before its session id"},
		{"a WebTransport uni stream ending inside its session id", func(w *wire) {
			w.uni(s2c, append(quicvarint.Append(nil, quictrace.H3StreamWebTransport), 0x80, 0x00), true)
		}, "server->client WebTransport stream 15 ends before its session id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := good("", "client")
			f.extra = append(f.extra, tc.send)
			r := f.run(t, sessionStreams)
			if tc.because == "" {
				wantPass(t, r)
			} else {
				wantFail(t, r, tc.because)
			}
		})
	}

	// The session's streams once the server refused the CONNECT.
	f := good("unidirectional", "client")
	f.response = with(f.response, ":status", "404")
	wantFail(t, f.run(t, sessionStreams), "client->server WebTransport stream 14 names session 0, which is no accepted")

	// A WebTransport bidi stream that ends after its signal fails too. Only the verdict is
	// asserted: the reason ("starts with 0x40: neither HEADERS nor the WebTransport signal
	// 0x41") takes the first byte of the signal's two-byte varint for the stream's start.
	f = good("", "client")
	f.extra = append(f.extra, func(w *wire) { w.bidi(s2c, wtBidi(sessionID, "")[:2], true) })
	if r := f.run(t, sessionStreams); r.OK() {
		t.Errorf("a bidi stream ending after its signal passed: %s", r.Reason)
	}
}

func TestKnownUniType(t *testing.T) {
	for typ, want := range map[uint64]bool{
		0x00: true, 0x01: true, 0x02: true, 0x03: true,
		0x21: true, 0x40: true, 0x5f: true, 0x21 + 0x1f*0x1000000: true,
		0x04: false, 0x20: false, 0x22: false, 0x41: false, quictrace.H3StreamWebTransport: false,
	} {
		if got := knownUniType(typ); got != want {
			t.Errorf("knownUniType(0x%x) = %v, want %v", typ, got, want)
		}
	}
}
