package matrix

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Shard is one of N parts of a matrix (--shard i/N): CI runs the parts on N machines at once.
type Shard struct{ I, N int }

// ParseShard reads "i/N" (1 <= i <= N); "" is the whole matrix (1/1).
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{1, 1}, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Shard{}, fmt.Errorf("%q: want i/N with 1 <= i <= N, such as 2/3", s)
	}
	return Shard{i, n}, nil
}

// Pick is the set of cell keys (Result.Key) in this shard. Cells of one group (PlanCell.Group:
// cells a suite compares with each other, such as a chain and its direct oracle) stay together.
// The parts are balanced by the cells' typical seconds, heaviest group first, each to the part
// with the least time so far (ties: the lower part, then the group's name), and depend on nothing
// but the cells: every machine of a CI matrix computes the same partition, whatever runs it has
// seen. Skipped cells weigh nothing.
func (s Shard) Pick(cells []PlanCell) map[string]bool {
	type group struct {
		name   string
		weight float64
		keys   []string
	}
	byName := map[string]*group{}
	var groups []*group
	for _, c := range cells {
		name := c.Group
		if name == "" {
			name = c.Label()
		}
		g := byName[name]
		if g == nil {
			g = &group{name: name}
			byName[name] = g
			groups = append(groups, g)
		}
		switch {
		case c.Skip:
		case c.TypicalSeconds > 0:
			g.weight += c.TypicalSeconds
		default:
			g.weight += defaultCellSeconds
		}
		g.keys = append(g.keys, c.Key())
	}
	sort.SliceStable(groups, func(a, b int) bool {
		if groups[a].weight != groups[b].weight {
			return groups[a].weight > groups[b].weight
		}
		return groups[a].name < groups[b].name
	})
	load := make([]float64, s.N)
	picked := map[string]bool{}
	for _, g := range groups {
		part := 0
		for p := range load {
			if load[p] < load[part] {
				part = p
			}
		}
		load[part] += g.weight
		if part == s.I-1 {
			for _, k := range g.keys {
				picked[k] = true
			}
		}
	}
	return picked
}
