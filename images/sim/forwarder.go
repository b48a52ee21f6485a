package main

import (
	"container/heap"
	"net/netip"
	"runtime"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/wirelab/wirelab/internal/netem"
	"github.com/wirelab/wirelab/internal/simstats"
)

// forwarder moves packets between the TUN devices and the engine. Two readers (one per side)
// ask the engine for a decision and queue the packet; one writer releases packets at their
// times. The engine is pure and single-threaded, so decisions are taken under one lock in
// arrival order, which keeps them reproducible for a given seed and packet sequence.
type forwarder struct {
	// start is the engine's time zero: the first packet it decides on, not the sim's own start,
	// so a profile's times (a blackhole's on/off, a schedule's phases, rebinding) count from the
	// traffic however long the endpoints took to start on a busy machine (a client that sent its
	// first packet 10 s after the sim started would otherwise miss a blackhole at 5-7 s).
	// Written once, under mu, by the reader that decides the first packet.
	start time.Time
	emu   *netem.Emulator
	lab   []netip.Prefix // the two lab subnets: the only destinations the sim forwards to
	mu    sync.Mutex     // guards emu and pending

	pending releaseHeap
	seq     uint64
	io      ioStats
	frozen  bool // the sim is stopping: the engine decides nothing more (stats.json is final)

	lateness latency // how late packets left versus their release time (writer only)

	// traces[sideClient] and traces[sideServer]: each side's view of the wire (nil: no capture).
	traces [2]*pcapWriter
}

// Sides of the engine, indexing forwarder.traces.
const (
	sideClient = 0
	sideServer = 1
)

// sides returns the side a packet of direction dir arrives from and the side it leaves towards.
func sides(dir netem.Direction) (from, to int) {
	if dir == netem.ToServer {
		return sideClient, sideServer
	}
	return sideServer, sideClient
}

// ioStats counts what the I/O layer itself saw (write errors, short packets, syscalls).
type ioStats = simstats.IO

type release struct {
	at  time.Duration
	seq uint64 // ties release in arrival order
	out tunDev
	to  int // the side it leaves towards (for the capture)
	buf []byte
	// stale: the engine corrupted the packet and left its transport checksum wrong on purpose,
	// for the receiver to drop it. It is written alone: in a GSO batch the kernel would compute
	// its checksum afresh and deliver it corrupted.
	stale bool
}

type releaseHeap []release

func (h releaseHeap) Len() int { return len(h) }
func (h releaseHeap) Less(i, j int) bool {
	return h[i].at < h[j].at || h[i].at == h[j].at && h[i].seq < h[j].seq
}
func (h releaseHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *releaseHeap) Push(x any)   { *h = append(*h, x.(release)) }
func (h *releaseHeap) Pop() any {
	old := *h
	r := old[len(old)-1]
	*h = old[:len(old)-1]
	return r
}

func newForwarder(emu *netem.Emulator, lab []netip.Prefix) *forwarder {
	return &forwarder{emu: emu, lab: lab}
}

// inLab reports whether a destination lies in one of the lab subnets. Anything else is dropped
// before the engine sees it, so no test traffic can leave the lab through the sim.
func (f *forwarder) inLab(a netip.Addr) bool {
	for _, p := range f.lab {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// now is the engine's clock: 0 until the first packet (see start).
func (f *forwarder) now() time.Duration {
	if f.start.IsZero() {
		return 0
	}
	return time.Since(f.start)
}

// readLoop reads packets arriving from one side on its own OS thread (see openTUN). A packet
// written back to the same TUN is received by the kernel there and routed on to the other side.
// On an offloading device one read may hold a GSO batch: its segments are decided one by one,
// in order, under one lock.
func (f *forwarder) readLoop(dev tunDev, dir netem.Direction) {
	runtime.LockOSThread()
	rbuf := make([]byte, 65536+vnetHdrLen)
	from, to := sides(dir)
	for {
		n, err := dev.read(rbuf)
		if n == 0 && err == nil {
			return // end of file: the device is gone (a TUN read never returns an empty packet)
		}
		if err != nil {
			f.mu.Lock()
			f.io.ReadErrors++
			f.mu.Unlock()
			if err == unix.EBADF || err == unix.EBADFD {
				return
			}
			time.Sleep(time.Millisecond)
			continue
		}
		pkts, err := f.packets(dev, rbuf[:n])
		if err != nil {
			f.mu.Lock()
			f.io.ReadErrors++
			f.mu.Unlock()
			continue
		}
		if f.traces[from] != nil { // as they arrived, before the engine changes them
			now := time.Now()
			for _, buf := range pkts {
				f.traces[from].write(now, append([]byte(nil), buf...))
			}
		}
		f.mu.Lock()
		if f.frozen {
			f.mu.Unlock()
			continue
		}
		f.io.Reads++
		for _, buf := range pkts {
			p := parsePacket(buf)
			if !f.inLab(p.dst) {
				f.io.Foreign++
				continue
			}
			if f.start.IsZero() {
				f.start = time.Now()
			}
			d := f.emu.Process(f.now(), dir, p.info)
			if !d.Drop {
				stale := p.apply(d)
				f.push(release{at: d.ReleaseAt, out: dev, to: to, buf: buf, stale: stale})
				if d.Duplicate != nil {
					f.push(release{at: d.Duplicate.ReleaseAt, out: dev, to: to, buf: append([]byte(nil), buf...), stale: stale})
				}
			}
		}
		f.mu.Unlock()
	}
}

// packets returns the wire packets one read delivered, each in a buffer of its own.
func (f *forwarder) packets(dev tunDev, b []byte) ([][]byte, error) {
	if !dev.vnet {
		return [][]byte{append([]byte(nil), b...)}, nil
	}
	return splitVnet(b, func(n int) []byte { return make([]byte, n) })
}

// push queues a packet for release (r.seq is set here); the caller holds mu.
func (f *forwarder) push(r release) {
	f.seq++
	r.seq = f.seq
	heap.Push(&f.pending, r)
}

// writeLoop releases packets when their time comes. Go's timers ride on the netpoller, whose
// waits have millisecond granularity: a 15 ms delay would come out ~1 ms late. So the writer
// owns an OS thread with 1 ns timer slack and sleeps with nanosleep (hrtimer precision) in
// slices of at most maxSleep, which also bounds how late a newly queued, earlier packet is seen.
// (Spinning through the last stretch was tried: on 2 vCPUs it starves the endpoints and makes
// p99 far worse.)
func (f *forwarder) writeLoop(stop <-chan struct{}) {
	runtime.LockOSThread()
	_ = unix.Prctl(unix.PR_SET_TIMERSLACK, 1, 0, 0, 0)
	const maxSleep = 100 * time.Microsecond
	var (
		writes uint64   // since the last time the writer held mu
		run    [][]byte // the packets a GSO batch may take
		batch  = make([]byte, 0, 65536+maxCoalesce*60)
		vh     [vnetHdrLen]byte
	)
	for {
		f.mu.Lock()
		var due []release
		now := f.now()
		for len(f.pending) > 0 && f.pending[0].at <= now {
			due = append(due, heap.Pop(&f.pending).(release))
		}
		idle := len(f.pending) == 0
		var wait time.Duration
		if !idle {
			wait = f.pending[0].at - now
		}
		f.io.Writes += writes
		writes = 0
		f.mu.Unlock()
		for i := 0; i < len(due); {
			var n int
			run, n = batchRun(due[i:], run)
			for _, r := range due[i : i+n] {
				f.traces[r.to].write(time.Now(), r.buf) // as the engine releases it
			}
			var err error
			if n == 1 {
				_, err = due[i].out.write(due[i].buf)
			} else {
				batch = coalesce(run[:n], batch, vh[:])
				_, err = due[i].out.writeGSO(vh[:], batch)
			}
			writes++
			if err != nil {
				f.mu.Lock()
				f.io.WriteErrors++
				f.mu.Unlock()
			}
			for _, r := range due[i : i+n] {
				f.lateness.add(f.now() - r.at)
			}
			i += n
		}
		select {
		case <-stop:
			return
		default:
		}
		switch {
		case len(due) > 0:
			continue
		case idle:
			// Parking on a channel would hand this locked thread's wake-up to the scheduler
			// (milliseconds at the tail); polling every maxSleep costs ~1% CPU instead.
			ts := unix.NsecToTimespec(int64(maxSleep))
			unix.RawSyscall(unix.SYS_NANOSLEEP, uintptr(unsafe.Pointer(&ts)), 0, 0)
		default:
			// A raw syscall keeps this thread's P: with an ordinary one the runtime hands the
			// P away during the sleep and the writer can wait a whole scheduling slice (ms)
			// to get one back. main gives the runtime an extra P for everything else.
			ts := unix.NsecToTimespec(int64(min(wait, maxSleep)))
			unix.RawSyscall(unix.SYS_NANOSLEEP, uintptr(unsafe.Pointer(&ts)), 0, 0)
		}
	}
}

// batchRun returns how many releases from due[0] on go out in one write, and in run their
// packets when that is a GSO batch: packets for the same offloading device that runLength
// accepts, none with a stale checksum (a batch's checksums are the kernel's, not the packets').
func batchRun(due []release, run [][]byte) ([][]byte, int) {
	run = run[:0]
	if !due[0].out.vnet {
		return run, 1
	}
	for _, r := range due {
		if r.out != due[0].out || r.stale || len(run) == maxCoalesce {
			break
		}
		run = append(run, r.buf)
	}
	if len(run) == 0 { // due[0] itself is stale
		return run, 1
	}
	return run, runLength(run)
}

// snapshot returns stats.json's content: the engine's counters plus the I/O layer's. A final
// snapshot also freezes the engine: what the readers get from then on is neither decided nor
// counted, so the counters in the final stats.json are the last ones.
func (f *forwarder) snapshot(final bool) simstats.Stats {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.frozen = f.frozen || final
	elapsed := f.now()
	s := simstats.Stats{Stats: f.emu.Stats(), Seconds: elapsed.Seconds(), IO: f.io, Final: final,
		Written: time.Now().UTC().Format(time.RFC3339Nano)}
	s.IO.Lateness = f.lateness.summary()
	if secs := elapsed.Seconds(); secs > 0 {
		s.RateToServerMbps = float64(s.ToServer.BytesOut) * 8 / secs / 1e6
		s.RateToClientMbps = float64(s.ToClient.BytesOut) * 8 / secs / 1e6
	}
	return s
}
