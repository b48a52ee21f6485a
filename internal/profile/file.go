package profile

import (
	"fmt"
	"maps"
	"os"
	"slices"

	"github.com/wirelab/wirelab/internal/netem"
)

// DefaultPath is where the sim image keeps its profiles.
const DefaultPath = "images/sim/profiles.yml"

// File is a loaded and fully validated profiles file.
type File struct {
	path string
	raw  *rawFile
}

// Param documents a short parameter name a profile accepts in references.
type Param struct {
	Name string // e.g. rate_to_client
	Set  string // the path it sets, e.g. to_client.loss
	Doc  string
}

// Info describes a profile for listings and help texts.
type Info struct {
	Name        string
	Description string
	Extends     string
	Scheduled   bool
	Params      []Param // including inherited ones, sorted by name
}

// LoadFile reads and validates a profiles file.
func LoadFile(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &Error{File: path, Msg: err.Error()}
	}
	return Parse(path, data)
}

// Parse validates profile YAML; name is used in errors. Every profile,
// parameter and schedule is checked, so later Resolve calls can only fail on
// the reference itself.
func Parse(name string, data []byte) (*File, error) {
	raw, err := parseFile(name, data)
	if err != nil {
		return nil, err
	}
	f := &File{path: name, raw: raw}
	for _, n := range f.Names() {
		if err := f.check(n); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// check validates one profile: its name, parameters and resolution.
func (f *File) check(name string) error {
	field := "profiles." + name
	if !nameRE.MatchString(name) {
		return f.errf(field, "bad profile name (want letters, digits, - and _)")
	}
	p := f.raw.Profiles[name]
	for _, pn := range sortedNames(p.Params) {
		pf := field + ".params." + pn
		switch prm := p.Params[pn]; {
		case !nameRE.MatchString(pn):
			return f.errf(pf, "bad parameter name (want letters, digits, - and _)")
		case prm.Set == nil:
			return f.errf(pf+".set", "required: the path the parameter sets, e.g. to_client.loss")
		default:
			if err := checkPath(string(*prm.Set)); err != nil {
				return f.errf(pf+".set", "%v", err)
			}
		}
	}
	_, err := f.resolve(ref{name: name})
	return err
}

// Names returns the profile names, sorted.
func (f *File) Names() []string { return sortedNames(f.raw.Profiles) }

// Path returns the file the profiles came from.
func (f *File) Path() string { return f.path }

// Info describes the named profile.
func (f *File) Info(name string) (Info, error) {
	p, ok := f.raw.Profiles[name]
	if !ok {
		return Info{}, f.errf("profiles."+name, "unknown profile")
	}
	info := Info{Name: name, Description: string(or(p.Description, "")), Extends: string(or(p.Extends, "")), Scheduled: len(p.Schedule) > 0}
	params := f.params(name)
	for _, n := range sortedNames(params) {
		info.Params = append(info.Params, params[n])
	}
	return info, nil
}

// params collects a profile's parameters with the ones it inherits; a
// profile's own definition wins. Extends chains are acyclic once loaded;
// the depth bound only protects check from a cycle it is about to report.
func (f *File) params(name string) map[string]Param {
	out := map[string]Param{}
	var chain []*rawProfile
	for p := f.raw.Profiles[name]; p != nil && len(chain) <= len(f.raw.Profiles); {
		chain = append(chain, p)
		if p.Extends == nil {
			break
		}
		p = f.raw.Profiles[string(*p.Extends)]
	}
	for _, p := range slices.Backward(chain) {
		for n, prm := range p.Params {
			if prm.Set != nil {
				out[n] = Param{Name: n, Set: string(*prm.Set), Doc: string(or(prm.Doc, ""))}
			}
		}
	}
	return out
}

// Resolve turns a reference like "drop-rate:rate_to_client=5" into netem
// settings.
func (f *File) Resolve(reference string) (*Resolved, error) {
	r, err := f.parseRef(reference)
	if err != nil {
		return nil, err
	}
	return f.resolve(r)
}

// Resolved is a profile reference turned into engine settings.
type Resolved struct {
	Name        string // canonical reference: parameters expanded to paths
	Profile     string // the profile name alone
	Description string
	// Schedule has at least one phase; phase 0 starts at 0.
	Schedule netem.Schedule
	Rebind   netem.Rebind
}

// Initial returns the Params in force at the start of the run.
func (r *Resolved) Initial() netem.DirParams { return r.Schedule[0].Links }

// Config returns the engine configuration for a run with seed.
func (r *Resolved) Config(seed uint64) netem.Config {
	return netem.Config{Profile: r.Name, Seed: seed, Schedule: r.Schedule, Rebind: r.Rebind}
}

// Emulator builds the engine for a run with seed.
func (r *Resolved) Emulator(seed uint64) (*netem.Emulator, error) {
	return netem.New(r.Config(seed))
}

func (f *File) errf(field, format string, args ...any) *Error {
	return &Error{File: f.path, Field: field, Msg: fmt.Sprintf(format, args...)}
}

func sortedNames[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
