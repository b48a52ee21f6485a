package profile

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/netem"
)

// settings are a profile's raw link settings after extends and overrides.
type settings struct {
	links  [2]*rawLink // indexed by netem.Direction
	rebind *rawRebind
}

// chain merges a profile over its extends ancestors. Precedence, lowest
// first: ancestor's settings, the profile's both:, its to_client:/to_server:.
func (f *File) chain(name string, stack []string) (settings, error) {
	p := f.raw.Profiles[name]
	field := "profiles." + name
	var s settings
	for _, dir := range netem.Directions {
		s.links[dir] = &rawLink{}
	}
	s.rebind = &rawRebind{}
	if p.Extends != nil {
		parent := string(*p.Extends)
		stack = append(stack, name)
		switch pp, ok := f.raw.Profiles[parent]; {
		case !ok:
			return s, f.errf(field+".extends", "unknown profile %q", parent)
		case slices.Contains(stack, parent):
			return s, f.errf(field+".extends", "cycle %s -> %s", strings.Join(stack, " -> "), parent)
		case len(pp.Schedule) > 0:
			return s, f.errf(field+".extends", "cannot extend %q: it has a schedule", parent)
		}
		ps, err := f.chain(parent, stack)
		if err != nil {
			return s, err
		}
		s = ps
	}
	s.overlay(p)
	return s, nil
}

// overlay merges a profile's (or a reference's override) sections over s.
func (s *settings) overlay(p *rawProfile) {
	for _, dir := range netem.Directions {
		merged := &rawLink{}
		merge(merged, s.links[dir])
		merge(merged, p.Both)
		if dir == netem.ToClient {
			merge(merged, p.ToClient)
		} else {
			merge(merged, p.ToServer)
		}
		s.links[dir] = merged
	}
	rb := &rawRebind{}
	merge(rb, s.rebind)
	merge(rb, p.Rebind)
	s.rebind = rb
}

// resolve builds the engine settings of a parsed reference. Overrides apply
// on top of everything else; for a scheduled profile, to every phase.
func (f *File) resolve(r ref) (*Resolved, error) {
	p := f.raw.Profiles[r.name]
	field := "profiles." + r.name
	ov := r.apply()
	out := &Resolved{Name: r.canonical(), Profile: r.name, Description: string(or(p.Description, ""))}
	conv := converter{file: f.path, prefix: field}

	if len(p.Schedule) == 0 {
		s, err := f.chain(r.name, nil)
		if err != nil {
			return nil, err
		}
		s.overlay(ov)
		links, err := conv.links(s.links)
		if err != nil {
			return nil, err
		}
		out.Schedule = netem.Static(out.Name, links)
		out.Rebind, err = conv.rebind(nilIfEmpty(s.rebind))
		return out, err
	}

	if p.Extends != nil || p.Both != nil || p.ToClient != nil || p.ToServer != nil {
		return nil, f.errf(field+".schedule", "a scheduled profile takes its links from the scheduled profiles: drop extends, both, to_client and to_server")
	}
	for i, ph := range p.Schedule {
		phase, err := f.phase(r.name, i, ph, ov)
		if err != nil {
			return nil, err
		}
		if i == 0 && phase.At != 0 {
			return nil, f.errf(fmt.Sprintf("%s.schedule[0].at", field), "the first entry must be at 0s, not %v", phase.At)
		}
		if i > 0 && phase.At <= out.Schedule[i-1].At {
			return nil, f.errf(fmt.Sprintf("%s.schedule[%d].at", field, i), "%v is not after the previous entry (%v)", phase.At, out.Schedule[i-1].At)
		}
		out.Schedule = append(out.Schedule, phase)
	}
	rb := &rawRebind{}
	merge(rb, p.Rebind)
	merge(rb, ov.Rebind)
	var err error
	out.Rebind, err = conv.rebind(nilIfEmpty(rb))
	return out, err
}

// phase resolves schedule entry i of profile name, with the reference's
// overrides ov applied on top.
func (f *File) phase(name string, i int, ph *rawPhase, ov *rawProfile) (netem.Phase, error) {
	field := fmt.Sprintf("profiles.%s.schedule[%d]", name, i)
	switch {
	case ph.At == nil:
		return netem.Phase{}, f.errf(field+".at", "required")
	case ph.Profile == nil:
		return netem.Phase{}, f.errf(field+".profile", "required")
	}
	refText := string(*ph.Profile)
	if target, _, _ := strings.Cut(refText, ":"); f.raw.Profiles[strings.TrimSpace(target)] == nil {
		return netem.Phase{}, f.errf(field+".profile", "unknown profile %q", strings.TrimSpace(target))
	}
	pr, err := f.parseRef(refText)
	if err != nil {
		e := err.(*Error)
		return netem.Phase{}, f.errf(field+".profile", "%s: %s", e.Field, e.Msg)
	}
	target := f.raw.Profiles[pr.name]
	if len(target.Schedule) > 0 {
		return netem.Phase{}, f.errf(field+".profile", "%q has a schedule itself; schedules do not nest", pr.name)
	}
	s, err := f.chain(pr.name, nil)
	if err != nil {
		return netem.Phase{}, err
	}
	if nilIfEmpty(s.rebind) != nil {
		return netem.Phase{}, f.errf(field+".profile", "%q rebinds; rebinding is per run, put rebind: on %q", pr.name, name)
	}
	s.overlay(pr.apply())
	s.overlay(ov)
	links, err := converter{file: f.path, prefix: "profiles." + pr.name}.links(s.links)
	if err != nil {
		return netem.Phase{}, err
	}
	return netem.Phase{At: time.Duration(*ph.At), Name: pr.canonical(), Links: links}, nil
}

func nilIfEmpty(r *rawRebind) *rawRebind {
	if r == nil || *r == (rawRebind{}) {
		return nil
	}
	return r
}
