// Package benchsuite runs make bench, the protocol performance testbed: download time and time
// to first byte of objects of several sizes over HTTP/1.1, h2 and h3, per server and sim
// profile, each cell (server x protocol x profile) on the shared matrix runner with its
// repetitions as topologies of their own. Its outputs are bench.csv, SVG charts and a terminal
// table; conformance/bench/bench.yml holds its sizes, protocols and profiles.
package benchsuite

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/wirelab/wirelab/internal/matrix"
)

// Config is conformance/bench/bench.yml.
type Config struct {
	Repetitions int        `yaml:"repetitions"`
	Sizes       []Size     `yaml:"sizes"`
	Protocols   []Protocol `yaml:"protocols"`
	Profiles    []Profile  `yaml:"profiles"`
	// CongestionControls are the algorithms --congestion may name: each sets the server's TCP
	// sender (Linux) and, for h3, its QUIC stack's, where the image can switch it.
	CongestionControls []string `yaml:"congestion_controls"`
	// GSOModes are the UDP GSO modes --gso may name (on, off): the server's QUIC stack's switch,
	// where the image has one (QUIC_GSO).
	GSOModes []string `yaml:"gso_modes"`
	// HyStartModes are the HyStart++ modes --hystart may name (on, off): the server's QUIC
	// CUBIC's slow-start exit (RFC 9406), where the image can switch it (QUIC_HYSTART).
	HyStartModes []string `yaml:"hystart_modes"`
	Quick        QuickSet `yaml:"quick"`
	Path         string   `yaml:"-"`
}

// Size is one object size.
type Size struct {
	Name  string `yaml:"name"`
	Bytes int64  `yaml:"bytes"`
}

// File is the object's name under www/.
func (s Size) File() string { return s.Name + ".bin" }

// Protocol is one client-side protocol: how curl is told to use it and what it must report (a
// QUIC stack's own client speaks h3 only and needs no switch).
type Protocol struct {
	Name        string `yaml:"name"`
	ALPN        string `yaml:"alpn"`
	Curl        string `yaml:"curl"`
	HTTPVersion string `yaml:"http_version"`
	Transport   string `yaml:"transport"`
}

// Profile is one sim profile of the bench.
type Profile struct {
	Name      string   `yaml:"name"`
	LossSweep bool     `yaml:"loss_sweep"`
	SkipSizes []string `yaml:"skip_sizes"`
	Why       string   `yaml:"why"`
	// Optional profiles run only when --profiles names them (not in the default set).
	Optional bool `yaml:"optional"`
}

// Measures reports whether the profile measures the size.
func (p Profile) Measures(size string) bool { return !slices.Contains(p.SkipSizes, size) }

// QuickSet is the short set (make bench QUICK=1).
type QuickSet struct {
	Servers     []string `yaml:"servers"`
	Clients     []string `yaml:"clients"`
	Profiles    []string `yaml:"profiles"`
	Sizes       []string `yaml:"sizes"`
	Repetitions int      `yaml:"repetitions"`
}

// MaxRepetitions bounds repetitions (each is a topology of its own).
const MaxRepetitions = 100

// Load reads and checks the bench file. A bad entry is an error naming the file, the entry and
// the field.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var c Config
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	c.Path = path
	return &c, c.check()
}

func (c *Config) check() error {
	bad := func(field, format string, a ...any) error {
		return fmt.Errorf("%s: %s: %s", c.Path, field, fmt.Sprintf(format, a...))
	}
	if c.Repetitions < 1 || c.Repetitions > MaxRepetitions {
		return bad("repetitions", "%d: want 1..%d", c.Repetitions, MaxRepetitions)
	}
	if len(c.Sizes) == 0 || len(c.Protocols) == 0 || len(c.Profiles) == 0 {
		return bad("sizes/protocols/profiles", "each needs at least one entry")
	}
	sizes := map[string]bool{}
	for i, s := range c.Sizes {
		switch {
		case !safeName(s.Name) || sizes[s.Name]:
			return bad(fmt.Sprintf("sizes[%d].name", i), "%q: want a unique name of letters and digits", s.Name)
		case s.Bytes < 1 || s.Bytes > 1<<32:
			return bad(fmt.Sprintf("sizes[%d].bytes", i), "%d: want 1..4294967296", s.Bytes)
		}
		sizes[s.Name] = true
	}
	protos := map[string]bool{}
	for i, p := range c.Protocols {
		f := func(k string) string { return fmt.Sprintf("protocols[%d].%s", i, k) }
		switch {
		case !safeName(p.Name) || protos[p.Name]:
			return bad(f("name"), "%q: want a unique name of letters and digits", p.Name)
		case p.ALPN == "":
			return bad(f("alpn"), "missing")
		case p.Curl == "":
			return bad(f("curl"), "missing: curl's protocol switch")
		case p.HTTPVersion == "":
			return bad(f("http_version"), "missing: the HTTP version curl must report")
		case p.Transport != "tcp" && p.Transport != "udp":
			return bad(f("transport"), "%q: want tcp or udp", p.Transport)
		}
		protos[p.Name] = true
	}
	profiles := map[string]bool{}
	for i, p := range c.Profiles {
		if p.Name == "" || profiles[p.Name] {
			return bad(fmt.Sprintf("profiles[%d].name", i), "%q: missing or duplicate", p.Name)
		}
		for j, s := range p.SkipSizes {
			if !sizes[s] {
				return bad(fmt.Sprintf("profiles[%d].skip_sizes[%d]", i, j), "unknown size %q", s)
			}
		}
		profiles[p.Name] = true
	}
	for i, cc := range c.CongestionControls {
		if !safeName(cc) || slices.Index(c.CongestionControls, cc) != i {
			return bad(fmt.Sprintf("congestion_controls[%d]", i), "%q: want a unique name of letters and digits", cc)
		}
		if strings.HasPrefix(cc, gsoPrefix) || strings.HasPrefix(cc, hystartPrefix) {
			return bad(fmt.Sprintf("congestion_controls[%d]", i), "%q: a name starting %q or %q would read as a GSO or HyStart++ mode in <server>@<cc>+gso-<mode>",
				cc, gsoPrefix, hystartPrefix)
		}
	}
	for field, modes := range map[string][]string{"gso_modes": c.GSOModes, "hystart_modes": c.HyStartModes} {
		for i, g := range modes {
			if g != "on" && g != "off" || slices.Index(modes, g) != i {
				return bad(fmt.Sprintf("%s[%d]", field, i), "%q: want on or off, each once", g)
			}
		}
	}
	q := c.Quick
	for i, s := range q.Sizes {
		if !sizes[s] {
			return bad(fmt.Sprintf("quick.sizes[%d]", i), "unknown size %q", s)
		}
	}
	for i, p := range q.Profiles {
		if !profiles[p] {
			return bad(fmt.Sprintf("quick.profiles[%d]", i), "unknown profile %q (not in profiles)", p)
		}
	}
	if q.Repetitions < 0 || q.Repetitions > MaxRepetitions {
		return bad("quick.repetitions", "%d: want 1..%d", q.Repetitions, MaxRepetitions)
	}
	return nil
}

// safeName: a name that is a file name and a URL path segment as it is.
func safeName(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// Selection narrows the bench file to a run: comma-separated names ("" keeps the default) and
// repetitions (0 keeps the default). Quick starts from the file's quick set.
type Selection struct {
	Quick                                        bool
	Servers, Clients, Protocols, Profiles, Sizes string
	Congestion                                   string // "": each stack's default (TCP: cubic)
	GSO                                          string // "": each QUIC stack's default
	HyStart                                      string // "": each QUIC stack's default
	Reps                                         int
}

// Select makes the run's plan from the bench file, the bench servers and clients and the
// selection. An unknown name is an error naming the flag (or the quick set's field) and the
// known names; so is a selection where no client speaks a selected protocol.
func (c *Config) Select(servers []Server, clients []Client, sel Selection) (*Plan, error) {
	p := &Plan{Repetitions: c.Repetitions}
	if sel.Quick {
		def := func(flag *string, names []string) {
			if *flag == "" {
				*flag = strings.Join(names, ",")
			}
		}
		def(&sel.Servers, c.Quick.Servers)
		def(&sel.Clients, c.Quick.Clients)
		def(&sel.Profiles, c.Quick.Profiles)
		def(&sel.Sizes, c.Quick.Sizes)
		if sel.Reps == 0 {
			sel.Reps = c.Quick.Repetitions
		}
	}
	var err error
	if p.Servers, err = matrix.Select(servers, sel.Servers, func(s Server) string { return s.Name }, "server"); err != nil {
		return nil, fmt.Errorf("--servers: %v", err)
	}
	if p.Clients, err = matrix.Select(clients, sel.Clients, func(x Client) string { return x.Name }, "client"); err != nil {
		return nil, fmt.Errorf("--clients: %v", err)
	}
	if p.Protocols, err = matrix.Select(c.Protocols, sel.Protocols, func(x Protocol) string { return x.Name }, "protocol"); err != nil {
		return nil, fmt.Errorf("--protocols: %v", err)
	}
	// The default protocols are those a selected client speaks (--clients ngtcp2: h3 only); a
	// protocol named that none of them speaks is an error.
	spoken := func(pr Protocol) bool {
		return slices.ContainsFunc(p.Clients, func(cl Client) bool { return cl.Speaks(pr) })
	}
	for _, pr := range p.Protocols {
		if !spoken(pr) && sel.Protocols != "" {
			return nil, fmt.Errorf("--protocols %s: none of the clients (--clients) speaks it (manifest alpn.bench)", pr.Name)
		}
	}
	p.Protocols = slices.DeleteFunc(slices.Clone(p.Protocols), func(pr Protocol) bool { return !spoken(pr) })
	if p.Profiles, err = matrix.Select(c.Profiles, sel.Profiles, func(x Profile) string { return x.Name }, "profile"); err != nil {
		return nil, fmt.Errorf("--profiles: %v (profiles of %s)", err, c.Path)
	}
	if sel.Profiles == "" { // the default set: the optional profiles only when named
		p.Profiles = slices.DeleteFunc(slices.Clone(p.Profiles), func(x Profile) bool { return x.Optional })
	}
	if p.Sizes, err = matrix.Select(c.Sizes, sel.Sizes, func(x Size) string { return x.Name }, "size"); err != nil {
		return nil, fmt.Errorf("--sizes: %v", err)
	}
	if sel.Congestion != "" {
		if p.CongestionControls, err = matrix.Select(c.CongestionControls, sel.Congestion, func(x string) string { return x }, "congestion control"); err != nil {
			return nil, fmt.Errorf("--congestion: %v (congestion_controls of %s)", err, c.Path)
		}
	}
	if sel.GSO != "" {
		if p.GSO, err = matrix.Select(c.GSOModes, sel.GSO, func(x string) string { return x }, "GSO mode"); err != nil {
			return nil, fmt.Errorf("--gso: %v (gso_modes of %s)", err, c.Path)
		}
	}
	if sel.HyStart != "" {
		if p.HyStart, err = matrix.Select(c.HyStartModes, sel.HyStart, func(x string) string { return x }, "HyStart++ mode"); err != nil {
			return nil, fmt.Errorf("--hystart: %v (hystart_modes of %s)", err, c.Path)
		}
	}
	if sel.Reps < 0 || sel.Reps > MaxRepetitions {
		return nil, fmt.Errorf("--reps %d: want 1..%d", sel.Reps, MaxRepetitions)
	}
	if sel.Reps > 0 {
		p.Repetitions = sel.Reps
	}
	if len(p.Servers) == 0 {
		return nil, fmt.Errorf("no bench servers: no image has the bench server role (roles.bench in images/*/manifest.yml)")
	}
	if len(p.Clients) == 0 {
		return nil, fmt.Errorf("no bench clients: no image has the bench client role (roles.bench in images/*/manifest.yml)")
	}
	// Smallest first, whatever order the flag named them in: the downloads, rows and charts go by size.
	sort.SliceStable(p.Sizes, func(a, b int) bool { return p.Sizes[a].Bytes < p.Sizes[b].Bytes })
	return p, nil
}
