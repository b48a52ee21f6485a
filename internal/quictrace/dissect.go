package quictrace

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/wirelab/wirelab/internal/tshark"
)

// Protocols tshark prints (with all their children) in its JSON tree. TLS handshake messages
// appear inside QUIC's CRYPTO frames; http3 is its own top-level layer.
const Protocols = "frame ip ipv6 udp quic http3"

// LongHeaderFilter is the display filter of a pass whose checks read only the handshake and the
// close: the datagrams that carry a long-header packet (any coalesced 1-RTT packet comes along)
// or a CONNECTION_CLOSE. Everything is still dissected, so connection state and decryption are
// the same; printing each 1-RTT datagram's JSON tree is what costs (a 25 MiB transfer: 23 s
// whole, 2.4 s filtered).
const LongHeaderFilter = "quic.header_form == 1 || quic.frame_type == 0x1c || quic.frame_type == 0x1d"

// DecodeAs are the tshark options that decode the lab's UDP ports ServerPort and
// PreferredAddressPort as QUIC (h3 follows from ALPN).
func DecodeAs() []string {
	return []string{"-d", "udp.port==" + strconv.Itoa(ServerPort) + ",quic",
		"-d", "udp.port==" + strconv.Itoa(PreferredAddressPort) + ",quic"}
}

// FramesOnlyArgs is the pass that reads QUIC frames without tshark's HTTP/3 dissector: on
// stream bytes that are not HTTP/3 (a WebTransport stream's payload, a fuzzer's frames) that
// dissector can throw ("New fragment past old data limits") and tshark then drops the rest of the
// packet's frames, so a stream's bytes read back with a hole the endpoints never saw.
func FramesOnlyArgs() []string {
	return append(DecodeAs(), "--disable-protocol", "http3", "-T", "json", "--no-duplicate-keys", "-J", "frame ip ipv6 udp quic")
}

// TsharkArgs is what follows tshark's input options (see tshark.Tool.Exec) in the pass Parse
// reads: the lab's ports decoded as QUIC, printed as one JSON tree per datagram, only those that
// match filter when it is not empty.
func TsharkArgs(filter string) []string {
	args := DecodeAs()
	if filter != "" {
		args = append(args, "-Y", filter)
	}
	return append(args, "-T", "json", "--no-duplicate-keys", "-J", Protocols)
}

// Load runs tshark once over pcap (with keylog, may be "" when the pcapng carries the secrets)
// and parses its output as it streams (the JSON is never held in memory as a whole). With filter
// LongHeaderFilter the Trace holds the handshake datagrams only and says so (LongHeadersOnly).
func Load(ctx context.Context, t *tshark.Tool, pcap, keylog, filter string) (*Trace, error) {
	tr, err := parsePass(ctx, t, pcap, keylog, TsharkArgs(filter))
	if err != nil {
		return nil, err
	}
	tr.LongHeadersOnly = filter == LongHeaderFilter
	return tr, nil
}

// parsePass runs one tshark pass with args and parses its JSON as it streams.
func parsePass(ctx context.Context, t *tshark.Tool, pcap, keylog string, args []string) (*Trace, error) {
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := t.Exec(ctx, pcap, keylog, pw, args...)
		pw.CloseWithError(err)
		done <- err
	}()
	tr, perr := Parse(pr)
	if perr != nil {
		io.Copy(io.Discard, pr) // let tshark finish
	}
	if err := <-done; err != nil {
		return nil, err
	}
	if perr != nil {
		return nil, fmt.Errorf("%s: %w", pcap, perr)
	}
	return tr, nil
}
