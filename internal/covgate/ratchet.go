package covgate

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"

	"gopkg.in/yaml.v3"
)

// Change is one threshold the ratchet raised.
type Change struct {
	Target, Metric string
	Old, New       float64
}

func (c Change) String() string {
	return fmt.Sprintf("%s %s: %g -> %g", c.Target, c.Metric, c.Old, c.New)
}

// RoundDown rounds a percentage down to a multiple of 0.5 (87.96 -> 87.5), so a ratcheted gate
// still passes on the run that set it while leaving no more slack than half a percent.
func RoundDown(p float64) float64 { return math.Floor(p*2+1e-9) / 2 }

// Ratchet raises the thresholds in the gates file at path to the measured values rounded down
// to 0.5%, never lowering one, and rewrites only those numbers (comments and layout stay).
// Metrics the file does not gate stay ungated; targets without a measurement are left alone.
func Ratchet(path string, measured map[string]Measured) ([]Change, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := Parse(path, data)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	nodes := thresholdNodes(&doc)
	type edit struct {
		node *yaml.Node
		text string
	}
	var changes []Change
	var edits []edit
	for _, g := range f.Gates {
		m, ok := measured[g.Target]
		if !ok || m["lines"].Total == 0 {
			continue
		}
		for _, metric := range Metrics {
			t := g.Thresholds[metric]
			c, have := m[metric]
			if t == nil || !have {
				continue
			}
			next := RoundDown(c.Exact())
			if next <= *t {
				continue
			}
			changes = append(changes, Change{g.Target, metric, *t, next})
			edits = append(edits, edit{nodes[g.Target+"."+metric], strconv.FormatFloat(next, 'f', -1, 64)})
		}
	}
	if len(edits) == 0 {
		return nil, nil
	}
	// Right to left within a line, so an edit does not move the columns of the next.
	sort.Slice(edits, func(i, j int) bool {
		a, b := edits[i].node, edits[j].node
		return a.Line < b.Line || (a.Line == b.Line && a.Column > b.Column)
	})
	lines := bytes.SplitAfter(data, []byte("\n"))
	for _, e := range edits {
		l := lines[e.node.Line-1]
		col := e.node.Column - 1
		if !bytes.HasPrefix(l[col:], []byte(e.node.Value)) {
			return nil, fmt.Errorf("%s:%d: cannot find %q to rewrite", path, e.node.Line, e.node.Value)
		}
		lines[e.node.Line-1] = append(append(append([]byte{}, l[:col]...), e.text...), l[col+len(e.node.Value):]...)
	}
	out := bytes.Join(lines, nil)
	if _, err := Parse(path, out); err != nil {
		return nil, fmt.Errorf("ratchet produced a bad file: %v", err)
	}
	return changes, os.WriteFile(path, out, 0o644)
}

// thresholdNodes maps "target.metric" to the scalar node holding that threshold.
func thresholdNodes(doc *yaml.Node) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	top := doc.Content[0]
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value != "targets" {
			continue
		}
		targets := top.Content[i+1]
		for j := 0; j+1 < len(targets.Content); j += 2 {
			name, body := targets.Content[j].Value, targets.Content[j+1]
			for k := 0; k+1 < len(body.Content); k += 2 {
				out[name+"."+body.Content[k].Value] = body.Content[k+1]
			}
		}
	}
	return out
}
