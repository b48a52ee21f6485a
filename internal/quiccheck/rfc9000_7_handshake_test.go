package quiccheck

import (
	"testing"

	"github.com/wirelab/wirelab/internal/quictrace"
)

// handshake: one handshake in version 1 passes; a Retry, a second handshake or a v2 server
// Initial fails.
func TestHandshakeOneV1WithoutRetry(t *testing.T) {
	retry := pkt(quictrace.ServerToClient, quictrace.TypeRetry)
	inV2 := serverInitial("s1")
	inV2.Version = quictrace.Version2
	wantPass(t, checkHandshake(trace(serverInitial("s1"))))
	wantFail(t, checkHandshake(trace(retry, serverInitial("s1"))), "1 Retry packet(s)")
	wantFail(t, checkHandshake(trace(serverInitial("s1"), serverInitial("s2"))), "2 handshakes")
	wantFail(t, checkHandshake(trace(inV2)), "want only 0x1")
}
