package wtcheck

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wirelab/wirelab/internal/quictrace"
)

var protocolNegotiation = register(Check{
	Name:        "protocol",
	Requirement: "draft-ietf-webtrans-http3 §3.3 (WT-Available-Protocols, WT-Protocol); upstream handshake",
	Description: "the client offers its PROTOCOLS in order, the server picks the client's first one it supports, and both write it to negotiated_protocol.txt",
	Run:         checkProtocol,
})

// ExpectedProtocol is the protocol a correct negotiation picks: the client's first that the
// server also supports ("" when none is shared).
func ExpectedProtocol(client, server []string) string {
	for _, p := range client {
		if slices.Contains(server, p) {
			return p
		}
	}
	return ""
}

// checkProtocol reads the offer and the choice from the session's CONNECT and its response
// (structured fields, RFC 9651: a List of Strings, and a String), and the negotiated protocol
// each endpoint wrote.
func checkProtocol(e *Evidence) Result {
	name := "protocol"
	want := ExpectedProtocol(e.ClientProtocols, e.ServerProtocols)
	ss := sessions(e.Trace)
	if len(ss) == 0 {
		return fail(name, "no extended CONNECT to read the negotiation from")
	}
	s := ss[0]
	offer := quictrace.Header(s.Request, "wt-available-protocols")
	offered, err := sfStrings(offer)
	switch {
	case offer == "":
		return fail(name, "the CONNECT carries no wt-available-protocols (the client was given %q)", strings.Join(e.ClientProtocols, " "))
	case err != nil:
		return fail(name, "wt-available-protocols %q: %v", offer, err)
	case !slices.Equal(offered, e.ClientProtocols):
		return fail(name, "the client offered %q, it was given %q (in that order)", offered, e.ClientProtocols)
	}
	chosen := quictrace.Header(s.Response, "wt-protocol")
	picked, err := sfStrings(chosen)
	switch {
	case chosen == "":
		return fail(name, "the response carries no wt-protocol (want %q)", want)
	case err != nil || len(picked) != 1:
		return fail(name, "wt-protocol %q is not one String", chosen)
	case picked[0] != want:
		return fail(name, "the server chose %q, want %q (the client's first protocol the server supports)", picked[0], want)
	}
	for _, side := range []struct {
		who  string
		file *string
	}{{"client", e.ClientNegotiated}, {"server", e.ServerNegotiated}} {
		switch {
		case side.file == nil:
			return fail(name, "the %s wrote no /downloads/negotiated_protocol.txt", side.who)
		case strings.TrimSpace(*side.file) != want:
			return fail(name, "the %s's negotiated_protocol.txt says %q, want %q", side.who, strings.TrimSpace(*side.file), want)
		}
	}
	return pass(name, "offered %d, the server chose %q, both endpoints wrote it", len(offered), want)
}

// sfStrings parses a Structured Field List whose members are Strings (RFC 9651 §3.1, §3.3.3),
// parameters ignored; a bare String is a list of one.
func sfStrings(v string) ([]string, error) {
	var out []string
	s := strings.TrimSpace(v)
	for s != "" {
		if s[0] != '"' {
			return nil, fmt.Errorf("member %q is not a String", s)
		}
		var b strings.Builder
		i := 1
		for ; i < len(s) && s[i] != '"'; i++ {
			if s[i] == '\\' && i+1 < len(s) {
				i++
			}
			b.WriteByte(s[i])
		}
		if i >= len(s) {
			return nil, fmt.Errorf("unterminated String")
		}
		out = append(out, b.String())
		s = s[i+1:]
		if j := strings.IndexByte(s, ','); j >= 0 { // skip parameters up to the next member
			s = strings.TrimSpace(s[j+1:])
			if s == "" {
				return nil, fmt.Errorf("trailing comma")
			}
		} else {
			s = ""
		}
	}
	return out, nil
}
