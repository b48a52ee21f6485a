package wtcheck

import (
	"testing"

	"github.com/wirelab/wirelab/internal/quictrace"
)

// RFC 9297 §2.1, draft §4.4: every DATAGRAM starts with the quarter stream id of an accepted
// session.
func TestDatagrams(t *testing.T) {
	for _, c := range testCases {
		wantPass(t, good(c.stream, c.requester).run(t, datagrams))
	}
	if r := good("datagram", "server").run(t, datagrams); r.Reason != "4 DATAGRAMs, each naming an accepted session" {
		t.Errorf("reason %q", r.Reason)
	}
	if r := good("", "client").run(t, datagrams); r.Reason != "0 DATAGRAMs, each naming an accepted session" {
		t.Errorf("reason %q", r.Reason)
	}

	s2c, c2s := quictrace.ServerToClient, quictrace.ClientToServer
	for _, tc := range []struct {
		name    string
		send    func(w *wire)
		because string
	}{
		{"quarter stream id of no session", func(w *wire) { w.dgram(s2c, wtDatagram(4, "PUSH hello.txt\nhello")) },
			"server->client DATAGRAM in frame 11: quarter stream id 1 names stream 4, no accepted session"},
		{"an empty datagram", func(w *wire) { w.dgram(c2s, nil) },
			"client->server DATAGRAM in frame 11 has no quarter stream id (0 bytes)"},
		{"a quarter stream id cut short", func(w *wire) { w.dgram(c2s, []byte{0x40}) },
			"client->server DATAGRAM in frame 11 has no quarter stream id (1 bytes)"},
		// aioquic_wt.py's datagram-without-session: "PU" reads as the varint 0x1055 = 4181.
		{"PUSH without a quarter stream id", func(w *wire) { w.dgram(s2c, []byte("PUSH hello.txt\nhello")) },
			"quarter stream id 4181 names stream 16724, no accepted session"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := good("", "client")
			f.extra = append(f.extra, tc.send)
			wantFail(t, f.run(t, datagrams), tc.because)
		})
	}

	// The session's datagrams once the server refused the CONNECT.
	f := good("datagram", "client")
	f.response = with(f.response, ":status", "404")
	wantFail(t, f.run(t, datagrams), "quarter stream id 0 names stream 0, no accepted session")

	// A second accepted session's datagrams are the second session's.
	f = good("", "client")
	f.extra = append(f.extra, func(w *wire) {
		id := w.open(c2s, false)
		w.headers(c2s, id, f.request)
		w.headers(s2c, id, f.response)
		w.dgram(c2s, wtDatagram(uint64(id), "GET hello.txt"))
	})
	wantPass(t, f.run(t, datagrams))
}
