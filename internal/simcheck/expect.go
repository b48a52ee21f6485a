package simcheck

import (
	"time"

	"github.com/wirelab/wirelab/internal/netem"
	"github.com/wirelab/wirelab/internal/profile"
)

// Expected is what a profile promises, in the units the probes report.
type Expected struct {
	RTTms         float64 // both one-way delays plus the probe's serialization each way
	JitterMs      float64 // jitter of both directions (widens the p99 bound)
	RoundTripLoss float64 // a probe is lost when either direction drops it
	// RoundTripCorrupt: a probe is also lost when either direction corrupts it, because the
	// receiver's UDP checksum catches every one-byte flip the engine makes.
	RoundTripCorrupt float64
	DownMbps         float64 // to-client rate; 0 = unlimited
	UpMbps           float64 // to-server rate
	// QueueProbes is how many probes the smaller of the two rate queues holds (0: no rate, no
	// queue): a sender that stalls for longer than that many probe intervals and then sends
	// what it owes at once overflows it.
	QueueProbes int
}

// Expect derives the expectations from a resolved profile's first phase for probes of ipBytes.
func Expect(r *profile.Resolved, ipBytes int) Expected {
	links := r.Initial()
	up, down := links.For(netem.ToServer), links.For(netem.ToClient)
	ser := func(p netem.Params) time.Duration {
		if p.Rate == 0 {
			return 0
		}
		return time.Duration(float64(ipBytes*8) / float64(p.Rate) * float64(time.Second))
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	return Expected{
		RTTms:            ms(up.Delay + down.Delay + ser(up) + ser(down)),
		JitterMs:         ms(up.Jitter + down.Jitter),
		RoundTripLoss:    1 - (1-up.Loss)*(1-down.Loss),
		RoundTripCorrupt: 1 - (1-up.Loss)*(1-down.Loss)*(1-up.Corrupt)*(1-down.Corrupt),
		DownMbps:         float64(down.Rate) / 1e6,
		UpMbps:           float64(up.Rate) / 1e6,
		QueueProbes:      queueProbes(ipBytes, up, down),
	}
}

// queueProbes is how many packets of ipBytes the smaller queue of links holds (0: no queue).
func queueProbes(ipBytes int, links ...netem.Params) int {
	least := 0
	for _, p := range links {
		lim := p.QueueLimit()
		if lim.IsZero() {
			continue
		}
		n := lim.Packets
		if lim.Bytes > 0 && (n == 0 || lim.Bytes/ipBytes < n) {
			n = lim.Bytes / ipBytes
		}
		if least == 0 || n < least {
			least = n
		}
	}
	return least
}
