package simcheck

import (
	"testing"

	"github.com/wirelab/wirelab/internal/netem"
	"github.com/wirelab/wirelab/internal/schedlag"
)

// A failure is excused only when the machine measurement explains it; passes stay passes.
func TestMachineJudge(t *testing.T) {
	quiet := Machine{Lag: schedlag.Summary{Samples: 10000, P99Ms: 0.3, MaxMs: 4, Behind: 0.02, Over1Ms: 0.005, SeenP99Ms: 0.4}}
	busy := Machine{Lag: schedlag.Summary{Samples: 10000, P99Ms: 11, MaxMs: 140, Behind: 0.4, Over1Ms: 0.3, SeenP99Ms: 17}, QueueDrops: 657, StallMs: 25}
	// Between the two: the tail is the machine's, the median is not.
	tailOnly := Machine{Lag: schedlag.Summary{Samples: 10000, P99Ms: 2, MaxMs: 30, Behind: 0.12, Over1Ms: 0.08, SeenP99Ms: 6}}
	stalledNoDrops := busy
	stalledNoDrops.QueueDrops = 0
	dropsNoStall := quiet
	dropsNoStall.QueueDrops, dropsNoStall.StallMs = 30, 25

	badTail := RTTP99("p", 30, 0, 90)
	badMedian := RTTP50("p", 60.29, 61.5)
	badLoss := Loss("p", "round_trip_loss", 0.0975, 1560, 10000)
	cases := []struct {
		name   string
		m      Machine
		c      Check
		judged bool // the check keeps its verdict
	}{
		{"tail under a busy machine", busy, badTail, false},
		{"tail on a quiet machine", quiet, badTail, true},
		{"median under a busy machine", busy, badMedian, false},
		{"median on a quiet machine", quiet, badMedian, true},
		{"tail when 1% of moments wait 6 ms", tailOnly, badTail, false},
		{"median when 8% of moments wait over 1 ms", tailOnly, badMedian, true},
		{"loss: queue drops from a stall the queue cannot hold", busy, badLoss, false},
		{"loss: stall without queue drops", stalledNoDrops, badLoss, true},
		{"loss: queue drops without a stall", dropsNoStall, badLoss, true},
		{"rate is never excused", busy, Rate("p", "rate_down", 10, 7), true},
		{"a pass stays a pass", busy, RTTP99("p", 30, 0, 31), true},
	}
	for _, c := range cases {
		got := c.m.Judge(c.c)
		if (got.NotJudged == "") != c.judged || got.Pass != c.c.Pass {
			t.Errorf("%s: not judged %q, pass %v (%s)", c.name, got.NotJudged, got.Pass, got)
		}
	}
}

func TestQueueProbes(t *testing.T) {
	p2p := queueProbes(ProbeIPBytes, netemParams(10e6, 25, 0), netemParams(10e6, 25, 0))
	bytes := queueProbes(ProbeIPBytes, netemParams(5e6, 0, 37500), netemParams(0, 0, 0))
	if p2p != 25 || bytes != 37500/ProbeIPBytes || queueProbes(ProbeIPBytes, netemParams(0, 0, 0)) != 0 {
		t.Errorf("simple-p2p %d probes, 37.5 kB %d probes", p2p, bytes)
	}
}

func netemParams(rate int64, packets, bytes int) netem.Params {
	return netem.Params{Rate: rate, Queue: netem.Depth{Packets: packets, Bytes: bytes}}
}
