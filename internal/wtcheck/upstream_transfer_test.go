package wtcheck

import (
	"bytes"
	"testing"

	"github.com/wirelab/wirelab/internal/quictrace"
)

// transferCases are the six transfer cases.
var transferCases = testCases[1:]

// except moves every file of the case as good() does but data.bin, which moves by move.
func except(f *fixture, move func(w *wire, session uint64, content []byte)) {
	good := f.transfer
	f.transfer = func(w *wire, session uint64, name string, content []byte) {
		if name == "data.bin" {
			move(w, session, content)
			return
		}
		good(w, session, name, content)
	}
}

// upstream webtransport.md: each file is requested with GET and carried whole on the case's
// transport within the session.
func TestTransfer(t *testing.T) {
	for _, c := range transferCases {
		r := good(c.stream, c.requester).run(t, transferOnWire)
		want := "2 files requested and carried whole on " + transportNoun(c.stream) + "s of the session"
		if !r.OK() || r.Reason != want {
			t.Errorf("%s: %s: %s, want a pass: %s", caseName(c.stream, c.requester), r.Verdict, r.Reason, want)
		}
	}

	// Misbehaviours every transport can show.
	for _, c := range transferCases {
		req := dirOf(c.requester)
		noun := transportNoun(c.stream)
		// the answerer's GET reads as a malformed answer where answers carry a PUSH line
		swapped := `does not start with "PUSH <name>\n"`
		if c.stream == "bidirectional" {
			swapped = `never sent "GET data.bin"`
		}
		for _, tc := range []struct {
			name    string
			move    func(w *wire, session uint64, content []byte)
			because string
		}{
			{"a wrong byte", func(w *wire, session uint64, content []byte) {
				bad := bytes.Clone(content)
				bad[300] ^= 0x20
				transferOn(c.stream, c.requester)(w, session, "data.bin", bad)
			}, "carries 600 bytes for data.bin, the file has 600 (or they differ)"},
			{"a byte missing", func(w *wire, session uint64, content []byte) {
				transferOn(c.stream, c.requester)(w, session, "data.bin", content[:599])
			}, "carries 599 bytes for data.bin, the file has 600"},
			{"never requested", func(w *wire, session uint64, content []byte) {},
				"the " + c.requester + ` never sent "GET data.bin" on a ` + noun + " of the session (1 of 2 requested)"},
			{"requested, never answered", func(w *wire, session uint64, content []byte) {
				switch c.stream {
				case "unidirectional":
					w.uni(req, wtUni(session, "GET data.bin"), true)
				case "bidirectional":
					w.bidi(req, wtBidi(session, "GET data.bin"), true)
				case "datagram":
					w.dgram(req, wtDatagram(session, "GET data.bin"))
				}
			}, "data.bin was not carried whole to the " + c.requester + " on a " + noun + " of the session (1 of 2 files"},
			{"moved in a session that was never accepted", func(w *wire, session uint64, content []byte) {
				transferOn(c.stream, c.requester)(w, 4, "data.bin", content)
			}, `never sent "GET data.bin"`},
			{"the answerer sends and requests", func(w *wire, session uint64, content []byte) {
				transferOn(c.stream, otherRole(c.requester))(w, session, "data.bin", content)
			}, swapped},
		} {
			t.Run(caseName(c.stream, c.requester)+"/"+tc.name, func(t *testing.T) {
				f := good(c.stream, c.requester)
				except(f, tc.move)
				wantFail(t, f.run(t, transferOnWire), tc.because)
			})
		}
	}

	// The session refused: nothing within it counts.
	f := good("unidirectional", "client")
	f.response = with(f.response, ":status", "403")
	wantFail(t, f.run(t, transferOnWire), `the client never sent "GET`)

	// What the case asks for.
	f = good("unidirectional", "client")
	f.Files = nil
	wantFail(t, f.run(t, transferOnWire), "the case moves no files")
	f = good("unidirectional", "client")
	f.Stream = ""
	wantFail(t, f.run(t, transferOnWire), `the case names no transport ("")`)
}

// Unidirectional streams: the answer is a WebTransport uni stream "PUSH name\n" + the bytes,
// ended with FIN.
func TestTransferUnidirectional(t *testing.T) {
	c2s, s2c := quictrace.ClientToServer, quictrace.ServerToClient
	for _, tc := range []struct {
		name    string
		move    func(w *wire, session uint64, content []byte)
		because string // "" passes
	}{
		{"PUSH naming the endpoint's path", func(w *wire, session uint64, content []byte) {
			w.uni(c2s, wtUni(session, "GET data.bin"), true)
			w.uni(s2c, wtUni(session, "PUSH "+testEndpoint+"/data.bin\n"+string(content)), true)
		}, ""},
		{"PUSH on a datagram", func(w *wire, session uint64, content []byte) {
			w.uni(c2s, wtUni(session, "GET data.bin"), true)
			w.dgram(s2c, wtDatagram(session, "PUSH data.bin\n"+string(content)))
		}, "data.bin was not carried whole to the client on a uni stream of the session (1 of 2 files"},
		{"GET and PUSH on datagrams", func(w *wire, session uint64, content []byte) {
			transferOn("datagram", "client")(w, session, "data.bin", content)
		}, `the client never sent "GET data.bin" on a uni stream of the session`},
		{"PUSH without the header line's newline", func(w *wire, session uint64, content []byte) {
			w.uni(c2s, wtUni(session, "GET data.bin"), true)
			w.uni(s2c, wtUni(session, "PUSH data.bin"), true)
		}, `server->client uni stream 15 does not start with "PUSH <name>\n"`},
		{"the bytes without PUSH", func(w *wire, session uint64, content []byte) {
			w.uni(c2s, wtUni(session, "GET data.bin"), true)
			w.uni(s2c, wtUni(session, string(content)), true)
		}, `server->client uni stream 15 does not start with "PUSH <name>\n"`},
		{"PUSH without FIN", func(w *wire, session uint64, content []byte) {
			w.uni(c2s, wtUni(session, "GET data.bin"), true)
			w.uni(s2c, wtUni(session, "PUSH data.bin\n"+string(content)), false)
		}, "data.bin was not carried whole to the client"},
		{"PUSH on an untyped uni stream", func(w *wire, session uint64, content []byte) {
			w.uni(c2s, wtUni(session, "GET data.bin"), true)
			w.uni(s2c, []byte("PUSH data.bin\n"+string(content)), true)
		}, "data.bin was not carried whole to the client"},
		{"a file not of the case", func(w *wire, session uint64, content []byte) {
			transferOn("unidirectional", "client")(w, session, "data.bin", content)
			w.uni(s2c, wtUni(session, "PUSH other.bin\n"+string(content)), true)
		}, `server->client uni stream 19 carries "other.bin", not a file of the case`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := good("unidirectional", "client")
			except(f, tc.move)
			r := f.run(t, transferOnWire)
			if tc.because == "" {
				wantPass(t, r)
			} else {
				wantFail(t, r, tc.because)
			}
		})
	}
}

// Bidirectional streams: the requester's stream carries the signal, the session id and
// "GET name"; the answer is the file's bare bytes on the same stream, ended with FIN.
func TestTransferBidirectional(t *testing.T) {
	c2s, s2c := quictrace.ClientToServer, quictrace.ServerToClient
	for _, tc := range []struct {
		name    string
		move    func(w *wire, session uint64, content []byte)
		because string // "" passes
	}{
		{"GET naming the endpoint's path", func(w *wire, session uint64, content []byte) {
			id := w.bidi(c2s, wtBidi(session, "GET /"+testEndpoint+"/data.bin"), true)
			w.stream(s2c, id, content, true)
		}, ""},
		{"the answer in two STREAM frames", func(w *wire, session uint64, content []byte) {
			id := w.bidi(c2s, wtBidi(session, "GET data.bin"), true)
			w.streamAt(s2c, id, 0, content[:100], false)
			w.streamAt(s2c, id, 100, content[100:], true)
		}, ""},
		{"the answer without FIN", func(w *wire, session uint64, content []byte) {
			id := w.bidi(c2s, wtBidi(session, "GET data.bin"), true)
			w.stream(s2c, id, content, false)
		}, "data.bin was not carried whole to the client on a bidi stream of the session (1 of 2 files"},
		{"the answer with a gap before FIN", func(w *wire, session uint64, content []byte) {
			id := w.bidi(c2s, wtBidi(session, "GET data.bin"), true)
			w.streamAt(s2c, id, 0, content[:100], false)
			w.streamAt(s2c, id, 200, content[200:], true)
		}, "data.bin was not carried whole to the client"},
		{"the answer with a PUSH line", func(w *wire, session uint64, content []byte) {
			id := w.bidi(c2s, wtBidi(session, "GET data.bin"), true)
			w.stream(s2c, id, append([]byte("PUSH data.bin\n"), content...), true)
		}, "server->client side of bidi stream 4 carries 614 bytes for data.bin, the file has 600"},
		{"the answer on a stream whose request was not GET", func(w *wire, session uint64, content []byte) {
			id := w.bidi(c2s, wtBidi(session, "PUT data.bin"), true)
			w.stream(s2c, id, content, true)
		}, `the client never sent "GET data.bin" on a bidi stream of the session`},
		{"GET unanswered, the file on a stream whose request was not GET", func(w *wire, session uint64, content []byte) {
			w.bidi(c2s, wtBidi(session, "GET data.bin"), true)
			id := w.bidi(c2s, wtBidi(session, "POST data.bin"), true)
			w.stream(s2c, id, content, true)
		}, "data.bin was not carried whole to the client on a bidi stream"},
		{"GET without the signal", func(w *wire, session uint64, content []byte) {
			id := w.bidi(c2s, []byte("GET data.bin"), true)
			w.stream(s2c, id, content, true)
		}, `the client never sent "GET data.bin"`},
		{"the answer on a stream of its own", func(w *wire, session uint64, content []byte) {
			w.bidi(c2s, wtBidi(session, "GET data.bin"), true)
			w.bidi(s2c, wtBidi(session, string(content)), true)
		}, "data.bin was not carried whole to the client on a bidi stream"},
		{"the answer on a uni stream", func(w *wire, session uint64, content []byte) {
			w.bidi(c2s, wtBidi(session, "GET data.bin"), true)
			w.uni(s2c, wtUni(session, "PUSH data.bin\n"+string(content)), true)
		}, "data.bin was not carried whole to the client on a bidi stream"},
		{"another file's bytes", func(w *wire, session uint64, content []byte) {
			id := w.bidi(c2s, wtBidi(session, "GET data.bin"), true)
			w.stream(s2c, id, []byte("hello, webtransport\n"), true)
		}, "carries 20 bytes for data.bin, the file has 600"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := good("bidirectional", "client")
			except(f, tc.move)
			r := f.run(t, transferOnWire)
			if tc.because == "" {
				wantPass(t, r)
			} else {
				wantFail(t, r, tc.because)
			}
		})
	}
}

// Datagrams: "GET name" and "PUSH name\n" + the bytes, each after the session's quarter stream id.
func TestTransferDatagram(t *testing.T) {
	c2s, s2c := quictrace.ClientToServer, quictrace.ServerToClient
	for _, tc := range []struct {
		name      string
		requester string
		move      func(w *wire, session uint64, content []byte)
		because   string // "" passes
	}{
		{"PUSH without the header line's newline", "client", func(w *wire, session uint64, content []byte) {
			w.dgram(c2s, wtDatagram(session, "GET data.bin"))
			w.dgram(s2c, wtDatagram(session, "PUSH data.bin"))
		}, `server->client DATAGRAM in frame 12 does not start with "PUSH <name>\n"`},
		{"PUSH on a uni stream", "server", func(w *wire, session uint64, content []byte) {
			w.dgram(s2c, wtDatagram(session, "GET data.bin"))
			w.uni(c2s, wtUni(session, "PUSH data.bin\n"+string(content)), true)
		}, "data.bin was not carried whole to the server on a datagram of the session (1 of 2 files"},
		{"PUSH without the quarter stream id", "client", func(w *wire, session uint64, content []byte) {
			w.dgram(c2s, wtDatagram(session, "GET data.bin"))
			w.dgram(s2c, []byte("PUSH data.bin\n"+string(content)))
		}, "data.bin was not carried whole to the client on a datagram"},
		{"PUSH of a file not of the case", "client", func(w *wire, session uint64, content []byte) {
			w.dgram(c2s, wtDatagram(session, "GET data.bin"))
			w.dgram(s2c, wtDatagram(session, "PUSH data.bin.tmp\n"+string(content)))
		}, `server->client DATAGRAM in frame 12 carries "data.bin.tmp", not a file of the case`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := good("datagram", tc.requester)
			except(f, tc.move)
			r := f.run(t, transferOnWire)
			if tc.because == "" {
				wantPass(t, r)
			} else {
				wantFail(t, r, tc.because)
			}
		})
	}
}

func TestGetName(t *testing.T) {
	for in, want := range map[string]string{
		"GET data.bin":               "data.bin",
		"GET sunny-otter/data.bin":   "data.bin",
		"GET /sunny-otter/data.bin ": "data.bin",
		"GET data.bin\r\n":           "data.bin",
	} {
		if got, ok := getName([]byte(in)); !ok || got != want {
			t.Errorf("getName(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "GET", "get data.bin", "PUSH data.bin\n", "GETdata.bin"} {
		if got, ok := getName([]byte(in)); ok {
			t.Errorf("getName(%q) = %q, want no GET", in, got)
		}
	}
}
