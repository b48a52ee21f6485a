package wtcheck

import (
	"github.com/wirelab/wirelab/internal/quictrace"
)

var extendedConnect = register(Check{
	Name:        "extended-connect",
	Requirement: "RFC 9220 §3, RFC 8441 §4, draft-ietf-webtrans-http3 §3.2",
	Description: "one extended CONNECT per session to the case's endpoint (:protocol webtransport or webtransport-h3, https, authority, path), each answered 2xx",
	Run:         checkExtendedConnect,
})

// protocolTokens are the :protocol values WebTransport over HTTP/3 registered: "webtransport"
// up to draft-14, "webtransport-h3" from draft-15 on.
var protocolTokens = map[string]bool{"webtransport": true, "webtransport-h3": true}

// checkExtendedConnect: RFC 8441 §4 / RFC 9220 §3, an extended CONNECT carries :protocol,
// :scheme, :path and :authority; the WebTransport draft §3.2 names the :protocol token and makes
// a 2xx response the session's start. The case asks for one session on its endpoint.
func checkExtendedConnect(e *Evidence) Result {
	name := "extended-connect"
	ss := sessions(e.Trace)
	if len(ss) == 0 {
		return fail(name, "no extended CONNECT (HEADERS with :method CONNECT and :protocol) on a client bidi stream")
	}
	accepted := 0
	for _, s := range ss {
		h := func(n string) string { return quictrace.Header(s.Request, n) }
		switch {
		case !protocolTokens[h(":protocol")]:
			return fail(name, "stream %d: :protocol %q, want webtransport or webtransport-h3", s.ID, h(":protocol"))
		case h(":scheme") != "https":
			return fail(name, "stream %d: :scheme %q, want https (RFC 9220 §3)", s.ID, h(":scheme"))
		case h(":authority") == "" || h(":path") == "":
			return fail(name, "stream %d: :authority %q, :path %q; an extended CONNECT carries both (RFC 8441 §4)", s.ID, h(":authority"), h(":path"))
		case s.Response == nil:
			return fail(name, "stream %d: CONNECT %s has no response HEADERS from the server", s.ID, h(":path"))
		case !s.Accepted():
			return fail(name, "stream %d: CONNECT %s answered :status %q, want 2xx", s.ID, h(":path"), quictrace.Header(s.Response, ":status"))
		case e.Endpoint != "" && s.Path() != e.Endpoint:
			return fail(name, "stream %d: CONNECT to /%s, the case's endpoint is /%s", s.ID, s.Path(), e.Endpoint)
		}
		accepted++
	}
	if accepted != 1 {
		return fail(name, "%d WebTransport sessions, the case asks for 1", accepted)
	}
	s := ss[0]
	return pass(name, "CONNECT %s :protocol %s on stream %d, answered %s", quictrace.Header(s.Request, ":path"), quictrace.Header(s.Request, ":protocol"), s.ID, quictrace.Header(s.Response, ":status"))
}
