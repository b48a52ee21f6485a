// Package topology brings up the lab topology (compose/lab.yml: client -- sim -- server) for one
// cell of a run, on subnets of its own so cells can run in parallel.
package topology

import (
	"context"
	"fmt"
	"hash/fnv"
	"net/netip"
	"strings"
	"sync"

	"github.com/wirelab/wirelab/internal/docker"
)

// Subnets are a cell's two networks: /24s from 198.18.0.0/15 (RFC 2544's benchmarking range,
// never routed) and /64s from fd00:5717::/32, written as prefixes without the host part
// ("198.18.6", "fd00:5717:0:6") the way compose/lab.yml appends .100 / ::100.
type Subnets struct {
	Client4, Server4 string
	Client6, Server6 string
}

// pairs is how many client/server /24 pairs 198.18.0.0/15 holds.
const pairs = 256

func pair(i int) Subnets {
	c, s := 2*i, 2*i+1
	return Subnets{
		Client4: fmt.Sprintf("198.%d.%d", 18+c/256, c%256), Server4: fmt.Sprintf("198.%d.%d", 18+s/256, s%256),
		Client6: fmt.Sprintf("fd00:5717:0:%x", c), Server6: fmt.Sprintf("fd00:5717:0:%x", s),
	}
}

func (s Subnets) prefixes() []netip.Prefix {
	return []netip.Prefix{
		netip.MustParsePrefix(s.Client4 + ".0/24"), netip.MustParsePrefix(s.Server4 + ".0/24"),
		netip.MustParsePrefix(s.Client6 + "::/64"), netip.MustParsePrefix(s.Server6 + "::/64"),
	}
}

// Allocator hands out subnet pairs no docker network uses yet. Within one process it never gives
// the same pair twice while it is held; across processes (two runs at once) a pair can still be
// taken between the check and compose up: Cell.Up then moves the cell with Move.
type Allocator struct {
	mu     sync.Mutex
	held   map[int]bool
	leases map[string]int // key -> pair index
}

// Allocate returns a free pair, starting the search at a point derived from key so that
// concurrent runs tend to pick different pairs. release gives back whatever pair key holds then.
func (a *Allocator) Allocate(ctx context.Context, d *docker.CLI, key string) (Subnets, func(), error) {
	s, err := a.take(ctx, d, key)
	if err != nil {
		return Subnets{}, nil, err
	}
	return s, func() { a.mu.Lock(); delete(a.held, a.leases[key]); delete(a.leases, key); a.mu.Unlock() }, nil
}

// Move gives key a different free pair (its current one was taken by another process).
func (a *Allocator) Move(ctx context.Context, d *docker.CLI, key string) (Subnets, error) {
	return a.take(ctx, d, key)
}

func (a *Allocator) take(ctx context.Context, d *docker.CLI, key string) (Subnets, error) {
	used, err := usedPrefixes(ctx, d)
	if err != nil {
		return Subnets{}, err
	}
	h := fnv.New32a()
	h.Write([]byte(key))
	start := int(h.Sum32() % pairs)
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.held == nil {
		a.held, a.leases = map[int]bool{}, map[string]int{}
	}
	old, had := a.leases[key]
	for k := 0; k < pairs; k++ {
		i := (start + k) % pairs
		if a.held[i] || overlaps(pair(i).prefixes(), used) {
			continue
		}
		if had {
			delete(a.held, old)
		}
		a.held[i], a.leases[key] = true, i
		return pair(i), nil
	}
	return Subnets{}, &docker.EnvError{Msg: "no free subnet pair left in 198.18.0.0/15 (wirelab clean removes old runs' networks)"}
}

func overlaps(a, b []netip.Prefix) bool {
	for _, x := range a {
		for _, y := range b {
			if x.Overlaps(y) {
				return true
			}
		}
	}
	return false
}

// usedPrefixes lists the subnets of every docker network on the engine.
func usedPrefixes(ctx context.Context, d *docker.CLI) ([]netip.Prefix, error) {
	ids, err := d.Run(ctx, "network", "ls", "-q")
	if err != nil {
		return nil, err
	}
	if ids == "" {
		return nil, nil
	}
	format := []string{"network", "inspect", "--format", "{{range .IPAM.Config}}{{.Subnet}} {{end}}"}
	out, err := d.Run(ctx, append(format, docker.Lines(ids)...)...)
	if err != nil {
		// A network removed between ls and inspect (another cell's teardown) fails the batch:
		// ask one by one and skip the vanished ones.
		var b strings.Builder
		for _, id := range docker.Lines(ids) {
			if o, err := d.Run(ctx, append(format, id)...); err == nil {
				b.WriteString(o + " ")
			}
		}
		out = b.String()
	}
	var used []netip.Prefix
	for _, f := range strings.Fields(out) {
		if p, err := netip.ParsePrefix(f); err == nil {
			used = append(used, p)
		}
	}
	return used, nil
}
