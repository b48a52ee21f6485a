package wtcheck

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"github.com/wirelab/wirelab/internal/quictrace"
	"github.com/wirelab/wirelab/internal/quicvarint"
)

var transferOnWire = register(Check{
	Name:        "transfer",
	Requirement: "upstream webtransport.md (Using Unidirectional Streams, Bidirectional Streams, Datagrams)",
	Description: "each file is requested with GET and carried whole on the case's transport (a PUSH uni stream, the request's bidi stream, a PUSH datagram) within the session",
	Run:         checkTransfer,
})

// checkTransfer reads the protocol the case prescribes off the wire: the requester's "GET name"
// and the answer carrying the file's exact bytes, on WebTransport streams or datagrams of the
// accepted session (the downloads alone could have come some other way).
func checkTransfer(e *Evidence) Result {
	name := "transfer"
	if len(e.Files) == 0 {
		return fail(name, "the case moves no files")
	}
	ok := acceptedSessions(e.Trace)
	req, resp := sender(e.Requester), sender(other(e.Requester))
	gets := map[string]bool{}
	got := map[string]bool{}
	partial := map[string]string{} // what the trace holds of an answer that is not whole
	bad := ""
	note := func(format string, a ...any) {
		if bad == "" {
			bad = fmt.Sprintf(format, a...)
		}
	}
	// pushed records one answer: "PUSH name\n" + bytes (withHeader) or bare bytes for name.
	pushed := func(where string, b []byte, withHeader bool, name string) {
		if withHeader {
			rest, found := bytes.CutPrefix(b, []byte("PUSH "))
			line, body, nl := bytes.Cut(rest, []byte("\n"))
			if !found || !nl {
				note("%s does not start with \"PUSH <name>\\n\"", where)
				return
			}
			name, b = path.Base(strings.TrimSpace(string(line))), body
		}
		want, known := e.Files[name]
		switch {
		case !known:
			note("%s carries %q, not a file of the case", where, name)
		case !bytes.Equal(b, want):
			note("%s carries %d bytes for %s, the file has %d (or they differ)", where, len(b), name, len(want))
		default:
			got[name] = true
		}
	}
	switch e.Stream {
	case "unidirectional":
		for _, s := range e.Trace.H3Streams {
			if !s.Uni || s.WTSession == nil {
				continue
			}
			if _, in := ok[[2]uint64{uint64(s.Conn), *s.WTSession}]; !in {
				continue
			}
			where := fmt.Sprintf("%s uni stream %d", s.Dir, s.ID)
			if s.Dir == req {
				if f, isGet := getName(s.WTPayload); isGet {
					gets[f] = true
				}
			} else if s.Dir == resp && s.Fin {
				pushed(where, s.WTPayload, true, "")
			}
		}
	case "bidirectional":
		answers := map[[2]int64]quictrace.H3Stream{}
		for _, s := range e.Trace.H3Streams {
			if !s.Uni && s.Dir == resp {
				answers[[2]int64{int64(s.Conn), s.ID}] = s
			}
		}
		for _, s := range e.Trace.H3Streams {
			if s.Uni || s.Dir != req || s.WTSession == nil {
				continue
			}
			if _, in := ok[[2]uint64{uint64(s.Conn), *s.WTSession}]; !in {
				continue
			}
			f, isGet := getName(s.WTPayload)
			if !isGet {
				continue
			}
			gets[f] = true
			a, answered := answers[[2]int64{int64(s.Conn), s.ID}]
			switch {
			case answered && a.Fin:
				pushed(fmt.Sprintf("%s side of bidi stream %d", a.Dir, a.ID), a.Raw, false, f)
			case answered:
				partial[f] = fmt.Sprintf("bidi stream %d: %d bytes reassembled, no FIN after them%s", a.ID, len(a.Raw), pastGap(a))
			default:
				partial[f] = fmt.Sprintf("bidi stream %d: no answer", s.ID)
			}
		}
	case "datagram":
		for _, d := range e.Trace.H3Datagrams {
			q, n := quicvarint.Read(d.Data)
			if _, in := ok[[2]uint64{uint64(d.Conn), q * 4}]; n == 0 || !in {
				continue
			}
			payload := d.Data[n:]
			if d.Dir == req {
				if f, isGet := getName(payload); isGet {
					gets[f] = true
				}
			} else {
				pushed(fmt.Sprintf("%s DATAGRAM in frame %d", d.Dir, d.Frame), payload, true, "")
			}
		}
	default:
		return fail(name, "the case names no transport (%q)", e.Stream)
	}
	if bad != "" {
		return fail(name, "%s", bad)
	}
	for f := range e.Files {
		switch {
		case !gets[f]:
			return fail(name, "the %s never sent \"GET %s\" on a %s of the session (%d of %d requested)", e.Requester, f, transportNoun(e.Stream), len(gets), len(e.Files))
		case !got[f]:
			why := partial[f]
			if why == "" {
				why = "no answer that parses"
			}
			return fail(name, "%s was not carried whole to the %s on a %s of the session (%d of %d files; %s%s)", f, e.Requester, transportNoun(e.Stream), len(got), len(e.Files), why, undecrypted(e.Trace))
		}
	}
	return pass(name, "%d files requested and carried whole on %ss of the session", len(e.Files), transportNoun(e.Stream))
}

// pastGap says what the trace holds of a stream beyond its first missing byte ("" when nothing):
// a gap with the FIN after it is bytes the capture or the dissector lost, not bytes never sent.
func pastGap(s quictrace.H3Stream) string {
	if s.SeenEnd <= uint64(len(s.Raw)) {
		return ""
	}
	fin := "no FIN"
	if s.FinAt > 0 {
		fin = fmt.Sprintf("FIN at %d", s.FinAt)
	}
	return fmt.Sprintf("; bytes up to offset %d seen past the gap, %s", s.SeenEnd, fin)
}

// getName parses a request: "GET <name>" (the name may carry the endpoint's path).
func getName(b []byte) (string, bool) {
	rest, ok := bytes.CutPrefix(b, []byte("GET "))
	if !ok {
		return "", false
	}
	return path.Base(strings.TrimSpace(string(rest))), true
}

func transportNoun(stream string) string {
	switch stream {
	case "unidirectional":
		return "uni stream"
	case "bidirectional":
		return "bidi stream"
	}
	return "datagram"
}

// undecrypted says how many 1-RTT packets tshark could not decrypt ("" when none): a stream with
// a gap in the trace may be one the endpoints carried whole.
func undecrypted(t *quictrace.Trace) string {
	n := len(t.Filter(func(p *quictrace.Packet) bool { return p.Type == quictrace.Type1RTT && !p.Decrypted }))
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("; %d 1-RTT packets not decrypted", n)
}
