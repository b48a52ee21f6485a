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

// sfStrings parses a Structured Field List whose members are Strings (RFC 9651 §3.1, §3.3.3; a
// bare String is a list of one). Parameters are parsed and ignored; any other member, a bad
// escape, a character outside %x20-7E or anything between members but a comma fails it.
func sfStrings(v string) ([]string, error) {
	p := &sfParser{s: strings.TrimLeft(v, " \t")}
	var out []string
	if p.done() {
		return out, nil // an empty field is an empty list
	}
	for {
		str, err := p.str()
		if err != nil {
			return nil, err
		}
		out = append(out, str)
		if err := p.params(); err != nil {
			return nil, err
		}
		p.ows()
		if p.done() {
			return out, nil
		}
		if p.s[0] != ',' {
			return nil, fmt.Errorf("%q after a member, want a comma", p.s[0])
		}
		p.s = p.s[1:]
		p.ows()
		if p.done() {
			return nil, fmt.Errorf("trailing comma")
		}
	}
}

type sfParser struct{ s string }

func (p *sfParser) done() bool { return len(strings.TrimRight(p.s, " ")) == 0 }

func (p *sfParser) ows() { p.s = strings.TrimLeft(p.s, " \t") }

// str parses a String: DQUOTE *(unescaped / "\" ( DQUOTE / "\" )) DQUOTE.
func (p *sfParser) str() (string, error) {
	if p.s == "" || p.s[0] != '"' {
		return "", fmt.Errorf("member %q is not a String", p.s)
	}
	var b strings.Builder
	for i := 1; i < len(p.s); i++ {
		c := p.s[i]
		switch {
		case c == '"':
			p.s = p.s[i+1:]
			return b.String(), nil
		case c == '\\':
			if i+1 >= len(p.s) || (p.s[i+1] != '"' && p.s[i+1] != '\\') {
				return "", fmt.Errorf("bad escape in a String")
			}
			i++
			b.WriteByte(p.s[i])
		case c < 0x20 || c > 0x7e:
			return "", fmt.Errorf("character 0x%02x in a String", c)
		default:
			b.WriteByte(c)
		}
	}
	return "", fmt.Errorf("unterminated String")
}

// params skips the member's parameters: *( ";" *SP key [ "=" bare-item ] ).
func (p *sfParser) params() error {
	for strings.HasPrefix(p.s, ";") {
		p.s = strings.TrimLeft(p.s[1:], " ")
		n := 0
		for n < len(p.s) && (p.s[n] >= 'a' && p.s[n] <= 'z' || n > 0 && (p.s[n] >= '0' && p.s[n] <= '9' || strings.IndexByte("_-.*", p.s[n]) >= 0) || n == 0 && p.s[n] == '*') {
			n++
		}
		if n == 0 {
			return fmt.Errorf("parameter without a key")
		}
		p.s = p.s[n:]
		if !strings.HasPrefix(p.s, "=") {
			continue
		}
		p.s = p.s[1:]
		if err := p.bareItem(); err != nil {
			return err
		}
	}
	return nil
}

// bareItem skips a parameter's value: a String, Token, Integer/Decimal, Boolean or Byte Sequence.
func (p *sfParser) bareItem() error {
	if p.s == "" {
		return fmt.Errorf("parameter without a value")
	}
	switch c := p.s[0]; {
	case c == '"':
		_, err := p.str()
		return err
	case c == '?':
		if len(p.s) < 2 || (p.s[1] != '0' && p.s[1] != '1') {
			return fmt.Errorf("bad Boolean")
		}
		p.s = p.s[2:]
	case c == ':':
		end := strings.IndexByte(p.s[1:], ':')
		if end < 0 {
			return fmt.Errorf("unterminated Byte Sequence")
		}
		p.s = p.s[end+2:]
	case c == '-' || c >= '0' && c <= '9':
		n := 1
		for n < len(p.s) && (p.s[n] >= '0' && p.s[n] <= '9' || p.s[n] == '.') {
			n++
		}
		p.s = p.s[n:]
	case c == '*' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		n := 1
		for n < len(p.s) && (strings.IndexByte("!#$%&'*+-.^_`|~:/", p.s[n]) >= 0 || p.s[n] >= '0' && p.s[n] <= '9' || p.s[n] >= 'a' && p.s[n] <= 'z' || p.s[n] >= 'A' && p.s[n] <= 'Z') {
			n++
		}
		p.s = p.s[n:]
	default:
		return fmt.Errorf("bad parameter value %q", p.s)
	}
	return nil
}
