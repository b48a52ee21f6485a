package topology

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// MemoryBytes is a service's memory use as the engine reports it (docker stats' MemUsage).
func (c *Cell) MemoryBytes(ctx context.Context, service string) (int64, error) {
	out, err := c.run.Docker.Run(ctx, "stats", "--no-stream", "--format", "{{.MemUsage}}", c.Container(service))
	if err != nil {
		return 0, err
	}
	return ParseMemUsage(out)
}

// ParseMemUsage reads the usage half of docker stats' "12.3MiB / 23.4GiB".
func ParseMemUsage(s string) (int64, error) {
	used, _, _ := strings.Cut(strings.TrimSpace(s), "/")
	used = strings.TrimSpace(used)
	units := []struct {
		suffix string
		scale  float64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"GB", 1e9}, {"MB", 1e6}, {"kB", 1e3}, {"B", 1}}
	for _, u := range units {
		if num, ok := strings.CutSuffix(used, u.suffix); ok {
			v, err := strconv.ParseFloat(num, 64)
			if err != nil {
				break
			}
			return int64(v * u.scale), nil
		}
	}
	return 0, fmt.Errorf("docker stats: memory usage %q", s)
}

// MemorySampler records a service's memory: one sample before the load (taken when it
// starts, so the level before the client ran), one every interval while it runs, and one when
// it stops (what the service kept after the client ended). docker stats takes a second or two
// per sample on a busy engine, so a short probe may get no sample in between; the two ends
// are taken synchronously and are always there unless the engine failed to answer.
type MemorySampler struct {
	mu          sync.Mutex
	first, peak int64
	samples     int
	errors      int    // samples docker stats could not give
	lastErr     string // the last of those errors
	stop        chan struct{}
	done        chan struct{}
	take        func() (int64, error)
}

// SampleMemory takes service's first sample now, then samples it every interval until Stop.
func (c *Cell) SampleMemory(ctx context.Context, service string, interval time.Duration) *MemorySampler {
	return startSampler(ctx, func() (int64, error) { return c.MemoryBytes(ctx, service) }, interval)
}

// startSampler samples with take: once now, every interval, once at Stop.
func startSampler(ctx context.Context, take func() (int64, error), interval time.Duration) *MemorySampler {
	m := &MemorySampler{stop: make(chan struct{}), done: make(chan struct{}), take: take}
	m.record(m.take())
	go func() {
		defer close(m.done)
		for {
			select {
			case <-m.stop:
				return
			case <-ctx.Done():
				return
			case <-time.After(interval):
			}
			m.record(m.take())
		}
	}()
	return m
}

// record keeps one sample, or counts its error.
func (m *MemorySampler) record(v int64, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case err == nil:
		if m.samples == 0 {
			m.first = v
		}
		m.peak = max(m.peak, v)
		m.samples++
	default:
		m.errors, m.lastErr = m.errors+1, err.Error()
	}
}

// MemorySamples is what a sampler saw: the first sample, the peak, how many samples it took,
// and how many it could not take (with the last error).
type MemorySamples struct {
	First     int64  `json:"first_bytes"`
	Peak      int64  `json:"peak_bytes"`
	Samples   int    `json:"samples"`
	Errors    int    `json:"errors,omitempty"`
	LastError string `json:"last_error,omitempty"`
}

// Stop ends sampling, takes the last sample, and returns what it saw.
func (m *MemorySampler) Stop() MemorySamples {
	close(m.stop)
	<-m.done
	m.record(m.take())
	m.mu.Lock()
	defer m.mu.Unlock()
	return MemorySamples{First: m.first, Peak: m.peak, Samples: m.samples, Errors: m.errors, LastError: m.lastErr}
}
