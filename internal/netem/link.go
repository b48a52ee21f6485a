package netem

import (
	"fmt"
	"time"
)

// Link is the impairment engine of one direction. It is not safe for
// concurrent use; the I/O layer serializes calls per Emulator.
type Link struct {
	dir        Direction
	params     Params
	limit      Depth        // params.QueueLimit(), cached
	droplist   map[int]bool // params.Droplist as a set
	phaseStart time.Duration

	rng     streams
	ge      geState
	lossRun int // packets dropped in a row by random loss (for LossMaxRun)
	queue   rateQueue
	seq     int
	now     time.Duration

	// lastRelease is the latest release of in-order traffic; without jitter
	// reordering nothing is released before it.
	lastRelease time.Duration
	// floor is lastRelease at the last SetParams: a schedule switch must
	// not let new packets overtake ones scheduled before it.
	floor time.Duration
	// recent holds release times of the last in-order originals, newest
	// last, for Reorder.Gap; sinceReorder counts them since the last
	// reordering.
	recent       []time.Duration
	sinceReorder int

	stats LinkStats
}

// NewLink returns the Link for dir with its random streams derived from seed.
func NewLink(dir Direction, seed uint64, p Params) (*Link, error) {
	if !dir.Valid() {
		return nil, fmt.Errorf("netem: invalid direction %d", int(dir))
	}
	l := &Link{dir: dir, rng: newStreams(seed, dir)}
	if err := l.SetParams(0, p); err != nil {
		return nil, err
	}
	return l, nil
}

// SetParams switches the Link to p from time at on. Packets already scheduled
// keep their times and order; the queue backlog still drains at the old
// departures; blackhole windows restart from at.
func (l *Link) SetParams(at time.Duration, p Params) error {
	if err := p.Validate(); err != nil {
		return fmt.Errorf("netem: %s: %w", l.dir, err)
	}
	l.params = p
	l.limit = p.QueueLimit()
	l.droplist = make(map[int]bool, len(p.Droplist))
	for _, i := range p.Droplist {
		l.droplist[i] = true
	}
	l.phaseStart = at
	l.floor = l.lastRelease
	return nil
}

// Params returns the settings in force.
func (l *Link) Params() Params { return l.params }

// Direction returns the direction the Link was built for.
func (l *Link) Direction() Direction { return l.dir }

// Stats returns a snapshot of the counters.
func (l *Link) Stats() LinkStats { return l.stats }

// Process decides the fate of a packet arriving at now. Time must not go
// backwards; an earlier now is treated as the latest one seen.
func (l *Link) Process(now time.Duration, pkt PacketInfo) Decision {
	return l.process(now, pkt, NotDropped)
}

// process is Process with a drop already decided upstream (NAT). The packet
// still takes an index and its random draws, so it shifts nothing else.
func (l *Link) process(now time.Duration, pkt PacketInfo, pre DropCause) Decision {
	now = max(now, l.now)
	l.now = now
	l.seq++
	l.stats.PacketsIn++
	dr := l.rng.draw(&l.params, pkt)
	lostGE := l.ge.step(l.params.GE, dr.geMove, dr.geLose)

	cause := pre
	switch {
	case cause != NotDropped:
	case l.droplist[l.seq]:
		cause = DropDroplist
	case l.params.Blackhole.Active(now - l.phaseStart):
		cause = DropBlackhole
	case dr.loss < l.params.Loss && (l.params.LossMaxRun == 0 || l.lossRun < l.params.LossMaxRun):
		cause = DropLoss
	case lostGE:
		cause = DropGELoss
	}
	if cause == DropLoss {
		l.lossRun++
	} else {
		l.lossRun = 0
	}
	var depart time.Duration
	if cause == NotDropped {
		var ok bool
		if depart, ok = l.admit(now, pkt.Size); !ok {
			cause = DropQueue
		}
	}
	d := Decision{Seq: l.seq}
	if cause != NotDropped {
		d.Drop, d.Cause = true, cause
		l.stats.Dropped.add(cause)
		return d
	}

	d.MarkCE = pkt.ECN.IsECT() && l.params.CEThreshold.exceededBy(l.queue.occupancy())
	if dr.corrupt != nil {
		d.Corrupt = []ByteFlip{*dr.corrupt}
	}
	latest := l.lastRelease // the latest release of an earlier packet
	d.ReleaseAt, d.Reordered = l.release(depart, dr.jitter[0], dr.reorder)
	l.sent(pkt.Size, d)
	if d.ReleaseAt < latest { // ties leave in arrival order
		l.stats.OutOfOrder++
	}

	if dr.duplicate < l.params.Duplicate {
		if dep, ok := l.admit(now, pkt.Size); ok {
			t := l.earliest(l.propagate(dep, dr.jitter[1]))
			l.lastRelease = max(l.lastRelease, t)
			d.Duplicate = &Copy{ReleaseAt: t}
			l.stats.Duplicated++
			l.stats.PacketsOut++
			l.stats.BytesOut += uint64(pkt.Size)
		}
	}
	return d
}

// admit runs the packet through the rate queue and records its high-water mark.
func (l *Link) admit(now time.Duration, size int) (time.Duration, bool) {
	dep, ok := l.queue.admit(now, size, l.params.Rate, l.limit)
	if ok {
		occ := l.queue.occupancy()
		l.stats.MaxQueuePackets = max(l.stats.MaxQueuePackets, occ.Packets)
		l.stats.MaxQueueBytes = max(l.stats.MaxQueueBytes, occ.Bytes)
	}
	return dep, ok
}

// propagate adds delay and jitter; the link never delivers before departure.
func (l *Link) propagate(depart time.Duration, u float64) time.Duration {
	return depart + max(0, l.params.Delay+l.params.JitterDist.offset(l.params.Jitter, u))
}

// earliest applies the no-overtaking rules to an in-order release time.
func (l *Link) earliest(t time.Duration) time.Duration {
	t = max(t, l.floor)
	if !l.params.JitterReorder {
		t = max(t, l.lastRelease)
	}
	return t
}

// release computes the release time of an original packet, possibly sending
// it ahead of the Gap in-order packets before it (see Reorder).
func (l *Link) release(depart time.Duration, jitter, reorderDraw float64) (time.Duration, bool) {
	t := l.earliest(l.propagate(depart, jitter))
	gap := max(1, l.params.Reorder.Gap)
	if reorderDraw < l.params.Reorder.Probability && l.sinceReorder >= gap && len(l.recent) >= gap {
		early := max(l.recent[len(l.recent)-gap]-1, depart, l.floor)
		// Only a packet that actually overtakes something is reordered;
		// otherwise it travels like any other.
		if early < l.lastRelease && early < t {
			l.sinceReorder = 0
			return early, true
		}
	}
	l.lastRelease = max(l.lastRelease, t)
	l.recent = append(l.recent, t)
	if len(l.recent) > gap {
		l.recent = l.recent[len(l.recent)-gap:]
	}
	l.sinceReorder++
	return t, false
}

// sent updates the counters for a delivered original.
func (l *Link) sent(size int, d Decision) {
	l.stats.PacketsOut++
	l.stats.BytesOut += uint64(size)
	if len(d.Corrupt) > 0 {
		l.stats.Corrupted++
	}
	if d.MarkCE {
		l.stats.CEMarked++
	}
	if d.Reordered {
		l.stats.Reordered++
	}
}
