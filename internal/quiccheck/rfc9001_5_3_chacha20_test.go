package quiccheck

import (
	"testing"

	"github.com/wirelab/wirelab/internal/quictrace"
)

// chacha20: the ServerHello must select the one suite offered.
func TestChaCha20ServerSelects(t *testing.T) {
	ch := pkt(quictrace.ClientToServer, quictrace.TypeInitial)
	ch.TLS = []quictrace.TLSMessage{{Type: quictrace.TLSClientHello, CipherSuites: []uint16{quictrace.TLSChaCha20Poly1305SHA256}}}
	sh := func(cs uint16) quictrace.Packet {
		return serverInitial("s1", quictrace.TLSMessage{Type: quictrace.TLSServerHello, CipherSuites: []uint16{cs}})
	}
	wantPass(t, checkChaCha20(trace(ch, sh(quictrace.TLSChaCha20Poly1305SHA256))))
	wantFail(t, checkChaCha20(trace(ch, sh(quictrace.TLSAES128GCMSHA256))), "ServerHello selects")
}
