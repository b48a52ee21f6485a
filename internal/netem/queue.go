package netem

import "time"

// rateQueue is a virtual drop-tail queue in front of a rate-limited link. It
// holds no packets, only their departure times: a packet is "queued" from its
// arrival until its last bit has left the bottleneck.
type rateQueue struct {
	pending []departure // FIFO, departure times non-decreasing
	bytes   int
	last    time.Duration // departure of the most recently admitted packet
}

type departure struct {
	at   time.Duration
	size int
}

// serialization is the time size bytes occupy a link of rate bits/s, rounded
// up so the achieved rate never exceeds the configured one.
func serialization(size int, rate int64) time.Duration {
	if rate <= 0 || size <= 0 {
		return 0
	}
	bits := int64(size) * 8 * int64(time.Second)
	return time.Duration((bits + rate - 1) / rate)
}

// drain forgets packets that have fully departed by now.
func (q *rateQueue) drain(now time.Duration) {
	i := 0
	for i < len(q.pending) && q.pending[i].at <= now {
		q.bytes -= q.pending[i].size
		i++
	}
	q.pending = q.pending[i:]
}

// occupancy is what is still queued or being serialized.
func (q *rateQueue) occupancy() Depth {
	return Depth{Packets: len(q.pending), Bytes: q.bytes}
}

// admit enqueues a packet arriving at now and returns its departure time, or
// ok=false when the queue is full. A packet always fits an empty queue, so a
// byte limit below the packet size cannot kill the link.
func (q *rateQueue) admit(now time.Duration, size int, rate int64, limit Depth) (time.Duration, bool) {
	q.drain(now)
	occ := q.occupancy()
	if occ.Packets > 0 && limit.exceededBy(Depth{Packets: occ.Packets + 1, Bytes: occ.Bytes + size}) {
		return 0, false
	}
	// max with last keeps FIFO order even after a schedule switch lowers
	// the rate or removes it.
	dep := max(now, q.last) + serialization(size, rate)
	q.last = dep
	q.pending = append(q.pending, departure{at: dep, size: size})
	q.bytes += size
	return dep, true
}
