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

// MemorySampler records a service's memory every interval until stopped: the first sample
// (before the load) and the peak.
type MemorySampler struct {
	mu          sync.Mutex
	first, peak int64
	samples     int
	errors      int    // samples docker stats could not give
	lastErr     string // the last of those errors
	stop        chan struct{}
	done        chan struct{}
}

// SampleMemory starts sampling service now.
func (c *Cell) SampleMemory(ctx context.Context, service string, interval time.Duration) *MemorySampler {
	m := &MemorySampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(m.done)
		for {
			v, err := c.MemoryBytes(ctx, service)
			m.mu.Lock()
			if err == nil {
				if m.samples == 0 {
					m.first = v
				}
				m.peak = max(m.peak, v)
				m.samples++
			} else if ctx.Err() == nil {
				m.errors, m.lastErr = m.errors+1, err.Error()
			}
			m.mu.Unlock()
			select {
			case <-m.stop:
				return
			case <-ctx.Done():
				return
			case <-time.After(interval):
			}
		}
	}()
	return m
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

// Stop ends sampling and returns what it saw.
func (m *MemorySampler) Stop() MemorySamples {
	close(m.stop)
	<-m.done
	m.mu.Lock()
	defer m.mu.Unlock()
	return MemorySamples{First: m.first, Peak: m.peak, Samples: m.samples, Errors: m.errors, LastError: m.lastErr}
}
