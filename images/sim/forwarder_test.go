package main

import (
	"bytes"
	"net/netip"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/wirelab/wirelab/internal/netem"
)

// TestStaleChecksumNeverBatched runs a GSO batch of one flow through the forwarder (readLoop,
// the engine, writeLoop) over a socket pair standing in for an offloading TUN device. The engine
// corrupts one of the four packets in the default mode and releases all four at once. The
// writer still batches the intact ones, but the corrupted one must go out alone with its stale
// checksum: inside a GSO batch the kernel's segmentation (here splitVnet, which computes
// checksums the same way) would give it a valid checksum and the receiver would take it.
func TestStaleChecksumNeverBatched(t *testing.T) {
	for _, c := range []struct {
		name  string
		proto uint8
		v6    bool
	}{{"udp4", protoUDP, false}, {"tcp4", protoTCP, false}, {"udp6", protoUDP, true}, {"tcp6", protoTCP, true}} {
		t.Run(c.name, func(t *testing.T) {
			pkts := flowPackets(t, c.proto, c.v6, 4, 1200, 1200)
			params := netem.Params{Corrupt: 0.4} // the default mode: checksum left stale
			seed, victim := seedCorruptingOne(t, params, pkts)
			out := forward(t, params, seed, pkts)

			if len(out.segments) != len(pkts) {
				t.Fatalf("%d packets came out, want %d", len(out.segments), len(pkts))
			}
			payload := parsePacket(pkts[0]).payload
			for i, seg := range out.segments {
				changed := !bytes.Equal(seg[payload:], pkts[i][payload:])
				if changed != (i == victim) {
					t.Fatalf("packet %d changed=%v; the engine corrupted packet %d", i, changed, victim)
				}
				if valid := checksumsValid(seg); valid == (i == victim) {
					t.Errorf("packet %d arrives with a valid checksum=%v (written in a batch of %d): the corrupted one must keep its stale checksum, the others a valid one",
						i, valid, out.batchOf[i])
				}
			}
			if out.batchOf[victim] != 1 {
				t.Errorf("the corrupted packet went out in a batch of %d", out.batchOf[victim])
			}
			if out.writes >= len(pkts) {
				t.Errorf("%d writes for %d packets: the intact packets due together were not batched", out.writes, len(pkts))
			}
		})
	}
}

// seedCorruptingOne finds the first seed for which an engine with params corrupts exactly one of
// pkts (to the server), not the first or last, so that it sits inside the run the writer forms.
// The engine's draws depend only on the seed and the packet sequence, so the forwarder's engine
// with that seed makes the same decisions.
func seedCorruptingOne(t *testing.T, params netem.Params, pkts [][]byte) (uint64, int) {
	t.Helper()
	for seed := uint64(1); seed < 1000; seed++ {
		emu := newEngine(t, params, seed)
		victim, n := -1, 0
		for i, b := range pkts {
			if d := emu.Process(0, netem.ToServer, parsePacket(append([]byte(nil), b...)).info); len(d.Corrupt) > 0 {
				victim, n = i, n+1
			}
		}
		if n == 1 && victim > 0 && victim < len(pkts)-1 {
			return seed, victim
		}
	}
	t.Fatal("no seed below 1000 corrupts exactly one inner packet")
	return 0, 0
}

func newEngine(t *testing.T, params netem.Params, seed uint64) *netem.Emulator {
	t.Helper()
	emu, err := netem.New(netem.Config{Profile: "test", Seed: seed, Schedule: netem.Static("test", netem.DirParams{ToServer: params})})
	if err != nil {
		t.Fatal(err)
	}
	return emu
}

// forwarded is what the writer handed the device: the packets after the kernel's segmentation,
// in order, and for each the size of the write it came in.
type forwarded struct {
	segments [][]byte
	batchOf  []int
	writes   int
}

// forward sends pkts as one GSO batch into a forwarder whose engine has params and seed (no
// delay, so everything is due at once) and collects what the forwarder writes back.
func forward(t *testing.T, params netem.Params, seed uint64, pkts [][]byte) forwarded {
	t.Helper()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	dev, peer := tunDev{fd: fds[0], vnet: true}, fds[1]
	defer unix.Close(peer)
	// A deadline, so a forwarder that writes less fails the test instead of hanging it.
	tv := unix.NsecToTimeval(int64(5 * time.Second))
	if err := unix.SetsockoptTimeval(peer, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv); err != nil {
		t.Fatal(err)
	}
	lab := []netip.Prefix{netip.MustParsePrefix("198.18.0.0/15"), netip.MustParsePrefix("::/64")}
	f := newForwarder(newEngine(t, params, seed), lab)
	stop, readerDone, writerDone := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() { defer close(readerDone); f.readLoop(dev, netem.ToServer) }()
	go func() { defer close(writerDone); f.writeLoop(stop) }()
	defer func() {
		_ = unix.Shutdown(dev.fd, unix.SHUT_RDWR) // the reader sees the end of the device
		close(stop)
		<-readerDone
		<-writerDone
		unix.Close(dev.fd)
	}()

	vh := make([]byte, vnetHdrLen)
	batch := coalesce(pkts, nil, vh)
	if _, err := unix.Writev(peer, [][]byte{vh, batch}); err != nil {
		t.Fatal(err)
	}
	var out forwarded
	buf := make([]byte, 65536+vnetHdrLen)
	for len(out.segments) < len(pkts) {
		n, err := unix.Read(peer, buf)
		if err != nil {
			t.Fatalf("after %d packets: %v", len(out.segments), err)
		}
		segs, err := splitVnet(buf[:n], alloc)
		if err != nil {
			t.Fatal(err)
		}
		out.writes++
		for _, s := range segs {
			out.segments = append(out.segments, s)
			out.batchOf = append(out.batchOf, len(segs))
		}
	}
	return out
}

// A final snapshot (the one stats.json gets when the sim stops) freezes the engine: a packet
// read afterwards is neither decided nor counted, so the final counters are the last ones.
func TestFinalSnapshotFreezesTheEngine(t *testing.T) {
	f := newForwarder(newEngine(t, netem.Params{}, 1), []netip.Prefix{netip.MustParsePrefix("198.18.0.0/15")})
	pkt := flowPackets(t, protoUDP, false, 1, 100, 100)[0]
	f.readOne(t, pkt) // before: the packet is decided and counted, and nothing is final
	live := f.snapshot(false)
	if live.Final || live.ToServer.PacketsIn != 1 || live.IO.Reads != 1 {
		t.Fatalf("live snapshot: final %v, %d in, %d reads", live.Final, live.ToServer.PacketsIn, live.IO.Reads)
	}
	final := f.snapshot(true)
	f.readOne(t, pkt)
	after := f.snapshot(true)
	if !final.Final || after.ToServer != final.ToServer || after.IO.Reads != final.IO.Reads {
		t.Fatalf("after the final snapshot the engine still counted: %+v, then %+v", final.ToServer, after.ToServer)
	}
}

// readOne has readLoop read pkt from a device of its own and returns once the reader has seen
// the device end after it, so the packet has gone through the reader.
func (f *forwarder) readOne(t *testing.T, pkt []byte) {
	t.Helper()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fds[0])
	defer unix.Close(fds[1])
	if _, err := unix.Writev(fds[1], [][]byte{noVnetHdr[:], pkt}); err != nil {
		t.Fatal(err)
	}
	_ = unix.Shutdown(fds[1], unix.SHUT_WR) // the reader gets the packet, then the end
	f.readLoop(tunDev{fd: fds[0], vnet: true}, netem.ToServer)
}
