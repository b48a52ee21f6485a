package netem

import (
	"errors"
	"fmt"
	"time"
)

// Params are the impairments of one direction. The zero value is a perfect
// link: no delay, no loss, unlimited rate.
type Params struct {
	// Delay is the one-way propagation delay added after serialization.
	Delay time.Duration
	// Jitter spreads the delay; see Distribution for its shape.
	Jitter     time.Duration
	JitterDist Distribution
	// JitterReorder lets jitter reorder packets. Off (the default) releases
	// every packet no earlier than the one before it, as real links do.
	JitterReorder bool

	// Loss is the probability [0,1] of an independent (Bernoulli) drop.
	Loss float64
	// LossMaxRun, when > 0, caps how many packets in a row random Loss may drop: the next one
	// is forwarded. This is the upstream simulator's drop-rate "--burst_to_*" (its README: "no
	// more than a given number of packets are dropped in a row").
	LossMaxRun int
	// GE, when non-nil, adds bursty Gilbert-Elliott loss.
	GE *GilbertElliott
	// Droplist holds 1-based arrival indices to drop in this direction.
	Droplist []int

	// Corrupt is the probability [0,1] of flipping one byte of the transport
	// (UDP/TCP) payload: XOR with a random nonzero mask, so the byte always
	// takes one of the 255 other values.
	Corrupt float64
	// CorruptWindow, when > 0, confines the flip to the first CorruptWindow
	// bytes of the transport payload (all of it when shorter); 0 is the whole
	// payload. Upstream's corrupt-rate uses 50 "so we frequently hit the QUIC
	// header".
	CorruptWindow int
	// CorruptDeliver asks the I/O layer to recompute the transport checksum
	// after the flip (ByteFlip.FixChecksum), so the endpoint receives the
	// corrupted datagram and its own stack must reject it, as upstream's
	// corrupt-rate does. Off (the default), the stale checksum makes the
	// receiving kernel drop the packet: corruption is then a kind of loss.
	// In this mode QUIC Version Negotiation packets are never corrupted (see
	// PacketInfo.VersionNegotiation).
	CorruptDeliver bool
	// Duplicate is the probability [0,1] of sending a packet twice.
	Duplicate float64
	// Reorder sends some packets ahead of earlier ones.
	Reorder Reorder

	// Rate is the bottleneck in bits per second; 0 means unlimited.
	Rate int64
	// Queue limits the drop-tail queue in front of the bottleneck. Zero
	// means one bandwidth-delay product (see QueueLimit).
	Queue Depth
	// CEThreshold marks ECT packets CE while the queue holds more than this;
	// zero disables marking.
	CEThreshold Depth

	// Blackhole drops everything during periodic windows.
	Blackhole Blackhole
}

// Depth is a queue size in packets or bytes (or both: either limit applies).
type Depth struct {
	Packets int
	Bytes   int
}

// IsZero reports whether neither limit is set.
func (d Depth) IsZero() bool { return d.Packets == 0 && d.Bytes == 0 }

// exceeds reports whether occupancy o is above d in any dimension d sets.
func (d Depth) exceededBy(o Depth) bool {
	return (d.Packets > 0 && o.Packets > d.Packets) || (d.Bytes > 0 && o.Bytes > d.Bytes)
}

// Reorder selects packets with Probability to be sent ahead of the Gap
// in-order packets that arrived just before them.
//
// Semantics (in the spirit of netem's "reorder P gap G", which sends a
// selected packet immediately): a selected packet is released just before the
// Gap-th most recent in-order packet, so exactly Gap packets are overtaken when
// that many are still in flight; never before its own departure from the
// queue, so fewer are overtaken on an idle link (the lead time is bounded by
// the delay). After a reordering at least Gap in-order packets pass before the
// next one. Gap 0 is treated as 1.
type Reorder struct {
	Probability float64
	Gap         int
}

// Blackhole mirrors the upstream blackhole scenario: the link works for On,
// then drops everything for Off, Repeat times, then works for good. Times are
// relative to the start of the schedule phase the Params belong to. Off 0
// disables it.
type Blackhole struct {
	On, Off time.Duration
	Repeat  int
}

// Active reports whether t (since phase start) falls in an Off window.
func (b Blackhole) Active(t time.Duration) bool {
	if b.Off <= 0 || b.Repeat <= 0 || t < 0 {
		return false
	}
	period := b.On + b.Off
	k := t / period
	if k >= time.Duration(b.Repeat) {
		return false
	}
	return t-k*period >= b.On
}

const (
	// MTU is the packet size assumed when a limit must be expressed in
	// packets but is known in bytes (default queue floor).
	MTU = 1500
	// minQueuePackets keeps a BDP queue on a short or slow link from being
	// smaller than a few packets, which would drop every burst.
	minQueuePackets = 4
)

// QueueLimit returns the effective drop-tail limit: Queue when set, else one
// BDP (Rate x RTT, RTT = 2 x Delay) in bytes, but at least minQueuePackets
// MTU-sized packets. Without a rate there is no queue and no limit.
func (p Params) QueueLimit() Depth {
	if p.Rate <= 0 {
		return Depth{}
	}
	if !p.Queue.IsZero() {
		return p.Queue
	}
	return Depth{Bytes: BDP(p.Rate, 2*p.Delay)}
}

// BDP is the bandwidth-delay product in bytes, floored at a few MTUs.
func BDP(rate int64, rtt time.Duration) int {
	b := float64(rate) * rtt.Seconds() / 8
	if b < minQueuePackets*MTU {
		return minQueuePackets * MTU
	}
	if b > 1<<40 {
		return 1 << 40
	}
	return int(b)
}

// Validate rejects settings the engine cannot honour.
func (p Params) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if p.Delay < 0 {
		bad("negative delay %v", p.Delay)
	}
	if p.LossMaxRun < 0 {
		bad("negative loss max run %d", p.LossMaxRun)
	}
	if p.CorruptWindow < 0 {
		bad("negative corrupt window %d", p.CorruptWindow)
	}
	if p.Jitter < 0 {
		bad("negative jitter %v", p.Jitter)
	}
	if !p.JitterDist.Valid() {
		bad("unknown jitter distribution %d", int(p.JitterDist))
	}
	for _, pr := range []struct {
		name string
		v    float64
	}{{"loss", p.Loss}, {"corrupt", p.Corrupt}, {"duplicate", p.Duplicate}, {"reorder", p.Reorder.Probability}} {
		if !(pr.v >= 0 && pr.v <= 1) {
			bad("%s probability %v outside [0,1]", pr.name, pr.v)
		}
	}
	if p.GE != nil {
		if err := p.GE.Validate(); err != nil {
			errs = append(errs, err)
		}
	}
	for _, i := range p.Droplist {
		if i < 1 {
			bad("droplist index %d: indices start at 1", i)
		}
	}
	if p.Reorder.Gap < 0 {
		bad("negative reorder gap %d", p.Reorder.Gap)
	}
	if p.Rate < 0 {
		bad("negative rate %d", p.Rate)
	}
	if p.Queue.Packets < 0 || p.Queue.Bytes < 0 || p.CEThreshold.Packets < 0 || p.CEThreshold.Bytes < 0 {
		bad("negative queue size")
	}
	if b := p.Blackhole; b != (Blackhole{}) && (b.On < 0 || b.Off <= 0 || b.Repeat < 1) {
		bad("blackhole needs on >= 0, off > 0 and repeat >= 1, got %+v", b)
	}
	return errors.Join(errs...)
}
