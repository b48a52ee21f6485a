package wtcheck

import (
	"testing"

	"github.com/wirelab/wirelab/internal/quictrace"
)

// RFC 8441 §4 / RFC 9220 §3, draft §3.2: one extended CONNECT (:protocol, https, :authority,
// :path of the case's endpoint), answered 2xx.
func TestExtendedConnect(t *testing.T) {
	for _, c := range testCases {
		wantPass(t, good(c.stream, c.requester).run(t, extendedConnect))
	}
	r := good("", "client").run(t, extendedConnect)
	if want := "CONNECT /sunny-otter :protocol webtransport-h3 on stream 0, answered 200"; r.Reason != want {
		t.Errorf("reason %q, want %q", r.Reason, want)
	}

	for _, tc := range []struct {
		name    string
		change  func(f *fixture)
		because string // "" passes
	}{
		{"draft-02's token", func(f *fixture) { f.request = with(f.request, ":protocol", "webtransport") }, ""},
		{"another 2xx", func(f *fixture) { f.response = with(f.response, ":status", "202") }, ""},
		{"any endpoint when the case names none", func(f *fixture) {
			f.Endpoint = ""
			f.request = with(f.request, ":path", "/elsewhere")
		}, ""},
		{":protocol websocket", func(f *fixture) { f.request = with(f.request, ":protocol", "websocket") },
			`stream 0: :protocol "websocket", want webtransport or webtransport-h3`},
		{":scheme http", func(f *fixture) { f.request = with(f.request, ":scheme", "http") },
			`stream 0: :scheme "http", want https`},
		{"no :path", func(f *fixture) { f.request = with(f.request, ":path", "") },
			`:path ""; an extended CONNECT carries both`},
		{"no :authority", func(f *fixture) { f.request = with(f.request, ":authority", "") },
			`:authority "", :path "/sunny-otter"; an extended CONNECT carries both`},
		{"answered 404", func(f *fixture) { f.response = with(f.response, ":status", "404") },
			`stream 0: CONNECT /sunny-otter answered :status "404", want 2xx`},
		{"no response", func(f *fixture) { f.response = nil },
			"stream 0: CONNECT /sunny-otter has no response HEADERS from the server"},
		{"wrong endpoint", func(f *fixture) { f.request = with(f.request, ":path", "/other-otter") },
			"stream 0: CONNECT to /other-otter, the case's endpoint is /sunny-otter"},
		{"two sessions", func(f *fixture) {
			f.extra = append(f.extra, func(w *wire) {
				id := w.open(quictrace.ClientToServer, false)
				w.headers(quictrace.ClientToServer, id, f.request)
				w.headers(quictrace.ServerToClient, id, f.response)
			})
		}, "2 WebTransport sessions, the case asks for 1"},
		{"a second session, refused", func(f *fixture) {
			f.extra = append(f.extra, func(w *wire) {
				id := w.open(quictrace.ClientToServer, false)
				w.headers(quictrace.ClientToServer, id, f.request)
				w.headers(quictrace.ServerToClient, id, with(f.response, ":status", "429"))
			})
		}, `stream 4: CONNECT /sunny-otter answered :status "429"`},
		{"a plain CONNECT (no :protocol)", func(f *fixture) { f.request = with(f.request, ":protocol", "") },
			"no extended CONNECT"},
		{"a GET, not a CONNECT", func(f *fixture) { f.request = with(f.request, ":method", "GET") },
			"no extended CONNECT"},
		{"no request at all", func(f *fixture) { f.request, f.response = nil, nil },
			"no extended CONNECT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := good("", "client")
			tc.change(f)
			r := f.run(t, extendedConnect)
			if tc.because == "" {
				wantPass(t, r)
			} else {
				wantFail(t, r, tc.because)
			}
		})
	}
}

// The CONNECT's fields are read off the client's side of the stream, the response's off the
// server's: a server that echoed a CONNECT is no session.
func TestExtendedConnectDirections(t *testing.T) {
	f := good("", "client")
	f.request, f.response = nil, nil
	f.extra = append(f.extra, func(w *wire) {
		g := good("", "client")
		w.headers(quictrace.ServerToClient, 0, g.request)
	})
	wantFail(t, f.run(t, extendedConnect), "no extended CONNECT")
}
