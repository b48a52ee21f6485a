package quiccheck

import (
	"fmt"
	"strings"

	"github.com/wirelab/wirelab/internal/quictrace"
)

var chacha20 = Check{
	Name:        "chacha20",
	Requirement: "RFC 9001 §5.3, RFC 8446 §4.1.3",
	Reads:       LongHeaders,
	Description: "every ClientHello offers only TLS_CHACHA20_POLY1305_SHA256 and the ServerHello selects it",
	Run:         checkChaCha20,
}

// checkChaCha20: every ClientHello offers only TLS_CHACHA20_POLY1305_SHA256 (0x1303).
func checkChaCha20(t *quictrace.Trace) Result {
	const name = "chacha20"
	chs := t.ClientHellos()
	if len(chs) == 0 {
		return fail(name, "no ClientHello in client Initials (not decrypted?)")
	}
	for _, m := range chs {
		if len(m.CipherSuites) != 1 || m.CipherSuites[0] != quictrace.TLSChaCha20Poly1305SHA256 {
			return fail(name, "ClientHello offers cipher suites %s, want only 0x1303", suites(m.CipherSuites))
		}
	}
	for _, m := range serverHellos(t) {
		if len(m.CipherSuites) != 1 || m.CipherSuites[0] != quictrace.TLSChaCha20Poly1305SHA256 {
			return fail(name, "ServerHello selects %s, want 0x1303 (the only suite offered)", suites(m.CipherSuites))
		}
	}
	return pass(name, "%d ClientHello(s) offer only 0x1303", len(chs))
}

// serverHellos returns the ServerHello messages in server-sent Initial packets.
func serverHellos(t *quictrace.Trace) []quictrace.TLSMessage {
	var out []quictrace.TLSMessage
	for _, p := range t.Filter(func(p *quictrace.Packet) bool {
		return p.Dir == quictrace.ServerToClient && p.Type == quictrace.TypeInitial
	}) {
		for _, m := range p.TLS {
			if m.Type == quictrace.TLSServerHello {
				out = append(out, m)
			}
		}
	}
	return out
}

func suites(s []uint16) string {
	var out []string
	for _, v := range s {
		out = append(out, fmt.Sprintf("0x%04x", v))
	}
	return "[" + strings.Join(out, " ") + "]"
}
