package livefuzz

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/quictrace"
)

// The replay's trace check names the server's CONNECTION_CLOSE on the n-th connection, and
// says so when there is none (a server that accepted the frame) or it did not decrypt.
func TestCloseOnConnection(t *testing.T) {
	pkt := func(frames ...quictrace.Frame) quictrace.Packet {
		return quictrace.Packet{Type: quictrace.Type1RTT, Decrypted: len(frames) > 0, Frames: frames}
	}
	tr := &quictrace.Trace{Datagrams: []quictrace.Datagram{
		{Conn: 4, Dir: quictrace.ClientToServer, Packets: []quictrace.Packet{pkt(quictrace.Frame{Type: 0x01})}},
		{Conn: 4, Dir: quictrace.ServerToClient, Packets: []quictrace.Packet{pkt(quictrace.Frame{Type: quictrace.FrameConnectionClose, ErrorCode: 0x0a, ClosedFrameType: 0x1e})}},
		{Conn: 7, Dir: quictrace.ClientToServer, Packets: []quictrace.Packet{pkt(quictrace.Frame{Type: 0x01})}},
		{Conn: 7, Dir: quictrace.ServerToClient, Packets: []quictrace.Packet{pkt(quictrace.Frame{Type: 0x02})}},
		{Conn: 9, Dir: quictrace.ServerToClient, Packets: []quictrace.Packet{pkt()}},
		{Conn: 11, Dir: quictrace.ServerToClient, Packets: []quictrace.Packet{pkt(quictrace.Frame{Type: quictrace.FrameApplicationClose, ErrorCode: 0x104})}},
		// the client closed first: the server's close after it is the echo, not its answer
		{Conn: 12, Dir: quictrace.ClientToServer, Packets: []quictrace.Packet{pkt(quictrace.Frame{Type: quictrace.FrameConnectionClose})}},
		{Conn: 12, Dir: quictrace.ServerToClient, Packets: []quictrace.Packet{pkt(quictrace.Frame{Type: quictrace.FrameConnectionClose, ErrorCode: 0, ClosedFrameType: 0x1b51b8dac7a3e100})}},
	}}
	for n, want := range []string{"CONNECTION_CLOSE PROTOCOL_VIOLATION (0xa) for frame type 0x1e", "no CONNECTION_CLOSE from the server",
		"no CONNECTION_CLOSE among the server's decrypted packets (some 1-RTT packets did not decrypt)",
		"CONNECTION_CLOSE (application) H3_CLOSED_CRITICAL_STREAM (0x104)", "no CONNECTION_CLOSE from the server",
		"no connection 6 in the trace (5 connections)"} {
		got, cl := closeOnConnection(tr, n)
		if got != want || (cl != nil) != strings.HasPrefix(want, "CONNECTION_CLOSE") {
			t.Errorf("connection %d: %q (%v), want %q", n, got, cl, want)
		}
	}
}

// The differential oracle fails the target that answered a seed unlike the majority, and only
// when three or more answered and a majority exists.
func TestDifferential(t *testing.T) {
	cell := func(server string, answers map[string]string) matrix.Result {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, fuzzOut), 0o755); err != nil {
			t.Fatal(err)
		}
		var lines []string
		for seed, sig := range answers {
			b, _ := json.Marshal(map[string]any{"seed": seed + ".json", "signature": sig, "judged": nil})
			lines = append(lines, string(b))
		}
		// a judged seed is the RFC oracle's, never compared
		b, _ := json.Marshal(map[string]any{"seed": "judged.json", "signature": server, "judged": map[string]any{"rule": "x"}})
		lines = append(lines, string(b))
		if err := os.WriteFile(filepath.Join(dir, fuzzOut, "answers.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return matrix.Result{Cell: matrix.Cell{Server: server, Client: "quicfuzz", Case: "h3"}, Result: matrix.Succeeded, Dir: dir}
	}
	in := []matrix.Result{
		cell("a", map[string]string{"ack-unsent": "transport:0xa", "two": "alive"}),
		cell("b", map[string]string{"ack-unsent": "transport:0xa", "two": "alive"}),
		cell("c", map[string]string{"ack-unsent": "alive", "two": "transport:0x3"}),
	}
	out := Differential(in)
	got := map[string]string{}
	for _, r := range out {
		got[r.Server+" "+r.Sub] = r.Result
	}
	want := map[string]string{"a ": "succeeded", "a diff/ack-unsent": "succeeded", "c ": "failed", "c diff/ack-unsent": "failed", "c diff/two": "failed", "b diff/two": "succeeded"}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %q, want %q (all: %v)", k, got[k], w, got)
		}
	}
	if _, ok := got["a diff/judged"]; ok {
		t.Error("a judged seed was compared")
	}
	// judged again (Reverdict over a journal that holds the subs) it gives the same rows
	if again := Differential(out); len(again) != len(out) {
		t.Errorf("Differential twice: %d rows, then %d", len(out), len(again))
	}
	// two targets are no majority to hold a third to
	if two := Differential(in[:2]); len(two) != 2 {
		t.Errorf("two targets: %d rows, want the 2 cells alone", len(two))
	}
}

func TestCrashSignature(t *testing.T) {
	a := crashSignature(134, "line 13:    23 Aborted  0x7ffd3a2b1c00 conn 5f3a9e0c1d2b")
	b := crashSignature(134, "line 13:    41 Aborted  0x7ffe99999990 conn 00aa11bb22cc")
	if a != b {
		t.Errorf("the same death, two signatures: %q, %q", a, b)
	}
	if crashSignature(139, "Segmentation fault") == crashSignature(134, "Segmentation fault") {
		t.Error("exit codes must tell findings apart")
	}
}
