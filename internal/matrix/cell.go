package matrix

import (
	"path/filepath"
	"sort"
	"strings"
)

// The axes every cell has. A suite adds its own (Cell.Axes: chain, variant, protocol, ...).
const (
	AxisServer = "server" // the implementation under test
	AxisClient = "client" // the program that drives the cell
	AxisCase   = "case"   // what the cell tests (a QUIC test case, an h2 section, a bench profile)
	AxisSub    = "sub"    // one of the cases the cell's client ran (an h2spec case, a probe)
)

// Cell names one cell of a matrix by its axes: server, client and case, the suite's own axes
// by name, and for a sub-case result the sub-case. Values are never packed into each other.
type Cell struct {
	Server string            `json:"server"`
	Client string            `json:"client"`
	Case   string            `json:"case"`
	Axes   map[string]string `json:"axes,omitempty"` // the suite's other axes: chain, variant, protocol, ...
	Sub    string            `json:"sub,omitempty"`
	Abbr   string            `json:"abbr"` // the case's short mark in tables (not part of the cell's identity)
}

// Axis is one named value of a cell.
type Axis struct{ Name, Value string }

// Named lists the cell's axes in their canonical order: server, client, case, the suite's own
// axes by name, sub. Empty suite axes and an empty sub are left out.
func (c Cell) Named() []Axis {
	out := []Axis{{AxisServer, c.Server}, {AxisClient, c.Client}, {AxisCase, c.Case}}
	for _, n := range c.axisNames() {
		out = append(out, Axis{n, c.Axes[n]})
	}
	if c.Sub != "" {
		out = append(out, Axis{AxisSub, c.Sub})
	}
	return out
}

// Get is the value of an axis by name ("" when the cell has none).
func (c Cell) Get(name string) string {
	switch name {
	case AxisServer:
		return c.Server
	case AxisClient:
		return c.Client
	case AxisCase:
		return c.Case
	case AxisSub:
		return c.Sub
	}
	return c.Axes[name]
}

// axisNames are the suite's own axes with a value, sorted.
func (c Cell) axisNames() []string {
	var names []string
	for n, v := range c.Axes {
		if v != "" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// Key identifies the cell: every named axis as name=value.
func (c Cell) Key() string {
	var b strings.Builder
	for i, a := range c.Named() {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a.Name + "=" + a.Value)
	}
	return b.String()
}

// Whole is the cell a sub-case belongs to (the cell itself when it is no sub-case).
func (c Cell) Whole() Cell {
	c.Sub = ""
	return c
}

// With returns the cell with a suite axis set (a copy: the receiver's map is not changed).
func (c Cell) With(name, value string) Cell {
	axes := make(map[string]string, len(c.Axes)+1)
	for k, v := range c.Axes {
		axes[k] = v
	}
	axes[name] = value
	c.Axes = axes
	return c
}

// Slot is the cell's row name in tables, progress lines and folders: the server, and its other
// axes' values after "@" joined by "+" ("grpc-go@wirelab", "nginx@h2+cubic").
func (c Cell) Slot() string {
	var vals []string
	for _, n := range c.axisNames() {
		vals = append(vals, c.Axes[n])
	}
	if len(vals) == 0 {
		return c.Server
	}
	return c.Server + "@" + strings.Join(vals, "+")
}

// Label is how progress lines name the cell: <slot>_<client>/<case>[#sub].
func (c Cell) Label() string {
	l := c.Slot() + "_" + c.Client + "/" + c.Case
	if c.Sub != "" {
		l += "#" + c.Sub
	}
	return l
}

// Path is the cell's folder under its run's: <slot>_<client>/<case>.
func (c Cell) Path() string {
	return filepath.Join(pathSafe(c.Slot()+"_"+c.Client), pathSafe(c.Case))
}

// pathSafe keeps a name one path element.
func pathSafe(s string) string { return strings.ReplaceAll(s, "/", "-") }
