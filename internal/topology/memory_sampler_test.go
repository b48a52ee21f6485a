package topology

import (
	"context"
	"errors"
	"testing"
	"time"
)

// The sampler's two ends are taken synchronously: however slow the engine and however short
// the load, the level before it and the level after it are there (an interval longer than the
// test leaves no sample in between).
func TestSamplerTakesBothEnds(t *testing.T) {
	levels := []int64{10 << 20, 30 << 20}
	n := 0
	take := func() (int64, error) {
		v := levels[min(n, len(levels)-1)]
		n++
		return v, nil
	}
	m := startSampler(context.Background(), take, time.Hour)
	got := m.Stop()
	if got.Samples != 2 || got.First != 10<<20 || got.Peak != 30<<20 {
		t.Fatalf("%+v, want 2 samples: first 10 MiB, peak 30 MiB", got)
	}
}

func TestSamplerCountsErrors(t *testing.T) {
	m := startSampler(context.Background(), func() (int64, error) { return 0, errors.New("docker stats: no such container") }, time.Hour)
	got := m.Stop()
	if got.Samples != 0 || got.Errors != 2 || got.LastError == "" {
		t.Fatalf("%+v, want 0 samples and 2 errors", got)
	}
}
