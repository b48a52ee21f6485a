package topology

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/capture"
)

// The last packets of a cell decide its verdict: a probe client sends 300 datagrams, the probe
// server echoes each, and the client exits at once. While the sim runs, its trace is not
// evidence (unsealed; its last second may still be in the sim's buffer); after Fence the
// server-side trace holds every one of the 600 datagrams, the last echo included, and the seal
// vouches for it. A sim killed instead of stopped leaves an unsealed trace and Fence names it.
func TestIntegrationFenceSealsTheLastPackets(t *testing.T) {
	ctx, d, compose, root, r := integrationRun(t, "the sim and probe images")
	var alloc Allocator
	up := func(name string) *Cell {
		subnets, release, err := alloc.Allocate(ctx, d, r.ID+"/"+name)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(release)
		cell := NewCell(r, compose, root, name, subnets, map[string]string{
			"CLIENT_IMAGE": "wirelab/probe:latest", "SERVER_IMAGE": "wirelab/probe:latest", "SIM_PROFILE": "ideal",
		}).MoveWith(&alloc, d, r.ID+"/"+name)
		if err := cell.Up(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cell.Stop(context.Background()) })
		return cell
	}
	probe := func(cell *Cell) {
		// First what the lab's own clients wait for before their first packet (the sim's
		// readiness port, as run_endpoint.sh does) and the probe server's socket (port 5201 =
		// 0x1451): Up returns with the containers started, not with them ready, and under load
		// (make test, 2026-11-28) all 300 probes once went out before either was.
		if out, err := cell.Exec(ctx, "client", "/wait-for-it.sh", "sim:57832", "-s", "-t", "30"); err != nil {
			t.Fatalf("the sim is not ready: %v %s", err, out)
		}
		listening := `for i in $(seq 300); do grep -qs ':1451 ' /proc/net/udp /proc/net/udp6 && exit 0; sleep 0.1; done; exit 1`
		if out, err := cell.Exec(ctx, "server", "sh", "-c", listening); err != nil {
			t.Fatalf("the probe server never listened on 5201: %v %s", err, out)
		}
		out, err := cell.Exec(ctx, "client", "probe", "rtt", "-server", "server4:5201", "-count", "300", "-interval", "1ms", "-grace", "200ms")
		if err != nil || !strings.Contains(string(out), `"received":300`) {
			t.Fatalf("probe: %v %s", err, out)
		}
	}

	cell := up("fenced")
	probe(cell)
	simDir := filepath.Join(cell.Dir, "sim")
	if err := capture.Verify(simDir); !errors.Is(err, capture.ErrUnsealed) {
		t.Fatalf("before the fence the trace must not count as evidence, got %v", err)
	}
	if err := cell.Fence(ctx); err != nil {
		t.Fatal(err)
	}
	if err := capture.Verify(simDir, "trace_node_right.pcap"); err != nil {
		t.Fatal(err)
	}
	// 300 probes in, 300 echoes out, on the server side of the engine (besides ND and the like).
	if n := probeDatagrams(t, filepath.Join(simDir, "trace_node_right.pcap")); n != 600 {
		t.Fatalf("server-side trace after the fence: %d probe datagrams, want 600", n)
	}

	killed := up("killed")
	probe(killed)
	if _, err := d.Run(ctx, "kill", killed.Container("sim")); err != nil {
		t.Fatal(err)
	}
	err := killed.Fence(ctx)
	if err == nil || !strings.Contains(err.Error(), "the sim died (exited 137)") {
		t.Fatalf("a killed sim: Fence said %v", err)
	}
	if err := capture.Verify(filepath.Join(killed.Dir, "sim")); !errors.Is(err, capture.ErrUnsealed) {
		t.Fatalf("a killed sim's trace verified: %v", err)
	}
}

// probeDatagrams counts the IPv4 UDP datagrams to or from the probe port 5201 in a raw-IP pcap
// the sim wrote (little-endian, nanosecond timestamps).
func probeDatagrams(t *testing.T, path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for off := 24; off+16 <= len(data); {
		incl := int(binary.LittleEndian.Uint32(data[off+8:]))
		pkt := data[off+16 : off+16+incl]
		off += 16 + incl
		if len(pkt) < 28 || pkt[0]>>4 != 4 || pkt[9] != 17 {
			continue
		}
		udp := pkt[int(pkt[0]&0xf)*4:]
		if binary.BigEndian.Uint16(udp[0:]) == 5201 || binary.BigEndian.Uint16(udp[2:]) == 5201 {
			n++
		}
	}
	return n
}
