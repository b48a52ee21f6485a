package matrix

import (
	"fmt"
	"testing"
)

func TestParseShard(t *testing.T) {
	if s, err := ParseShard("2/3"); err != nil || s != (Shard{2, 3}) {
		t.Errorf("2/3: %v %v", s, err)
	}
	if s, err := ParseShard(""); err != nil || s != (Shard{1, 1}) {
		t.Errorf("empty: %v %v", s, err)
	}
	for _, bad := range []string{"0/3", "4/3", "3", "a/b", "1/0", "-1/2"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// The shards partition the matrix (every cell in exactly one), balanced by typical seconds, and
// the same cells give the same partition.
func TestShardsPartitionAndBalance(t *testing.T) {
	var cells []PlanCell
	for i := range 30 {
		secs := 10.0
		if i%10 == 0 {
			secs = 100 // a measurement
		}
		cells = append(cells, PlanCell{Cell: Cell{Server: fmt.Sprintf("s%d", i%5), Client: "c", Case: fmt.Sprintf("k%d", i)}, TypicalSeconds: secs})
	}
	seen := map[string]int{}
	var loads []float64
	for i := 1; i <= 3; i++ {
		picked := Shard{i, 3}.Pick(cells)
		again := Shard{i, 3}.Pick(cells)
		load := 0.0
		for _, c := range cells {
			k := c.Key()
			if picked[k] != again[k] {
				t.Fatalf("shard %d: not deterministic", i)
			}
			if picked[k] {
				seen[k]++
				load += c.TypicalSeconds
			}
		}
		loads = append(loads, load)
	}
	for _, c := range cells {
		if n := seen[c.Key()]; n != 1 {
			t.Errorf("%s in %d shards, want 1", c.Label(), n)
		}
	}
	if loads[0] != 190 || loads[1] != 190 || loads[2] != 190 { // 3 x 100 s and 27 x 10 s = 570 s, split evenly
		t.Errorf("loads %v, want 190 each", loads)
	}
}

// Cells of one group land in the same shard.
func TestShardKeepsGroupsTogether(t *testing.T) {
	var cells []PlanCell
	for _, chain := range []string{"direct", "a", "b"} {
		for i := range 6 {
			cells = append(cells, PlanCell{Cell: Cell{Server: "s", Client: "c", Case: fmt.Sprintf("k%d", i), Axes: map[string]string{"chain": chain}},
				TypicalSeconds: 8, Group: fmt.Sprintf("s|c|k%d", i)})
		}
	}
	for i := 1; i <= 3; i++ {
		picked := Shard{i, 3}.Pick(cells)
		for _, c := range cells {
			direct := c.With("chain", "direct").Key()
			if picked[c.Key()] != picked[direct] {
				t.Errorf("shard %d: %s and its direct cell are split", i, c.Label())
			}
		}
		if len(picked) != 6 {
			t.Errorf("shard %d: %d cells, want 6 (two groups of three)", i, len(picked))
		}
	}
}
