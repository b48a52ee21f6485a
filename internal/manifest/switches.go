package manifest

import (
	"fmt"
	"slices"
	"strings"
)

// Switches are the values a server's run_endpoint.sh accepts for the switches make bench passes
// it (--congestion: QUIC_CC, --gso: QUIC_GSO, --hystart: QUIC_HYSTART). The script answers 127
// to any other value; a bench cell asking for one is unsupported at plan time instead, with the
// field as the reason. None declared: the image has no switch, each stack's default runs.
type Switches struct {
	CC  []string `yaml:"quic_cc"`  // its QUIC stack's congestion controls
	GSO []string `yaml:"quic_gso"` // its QUIC stack's UDP GSO modes: on, off
	// HyStart are the HyStart++ modes (on, off) by the congestion control they combine with:
	// a value of quic_cc, or DefaultCC for QUIC_CC unset (the stack's own algorithm).
	HyStart map[string][]string `yaml:"quic_hystart"`
}

// DefaultCC is quic_hystart's key for QUIC_CC unset: the stack's own congestion control.
const DefaultCC = "default"

// modes are the values of quic_gso and quic_hystart.
var modes = []string{"on", "off"}

// Admits reports whether the image takes these switch values ("": not set), and if not which
// field says so.
func (s Switches) Admits(cc, gso, hystart string) (bool, string) {
	if cc != "" && !slices.Contains(s.CC, cc) {
		return false, undeclared("quic_cc", cc, s.CC)
	}
	if gso != "" && !slices.Contains(s.GSO, gso) {
		return false, undeclared("quic_gso", gso, s.GSO)
	}
	if hystart != "" {
		with := cc
		if with == "" {
			with = DefaultCC
		}
		if list := s.HyStart[with]; !slices.Contains(list, hystart) {
			return false, undeclared("quic_hystart."+with, hystart, list)
		}
	}
	return true, ""
}

func undeclared(field, value string, declared []string) string {
	list := "none"
	if len(declared) > 0 {
		list = strings.Join(declared, ", ")
	}
	return fmt.Sprintf("switches.%s has no %s (declared: %s)", field, value, list)
}

// validate holds the declaration to its form: names, on/off modes, each once; quic_hystart keyed
// by a declared congestion control or default; only a server is switched.
func (s Switches) validate(m *Manifest) error {
	bad := func(field, format string, a ...any) error {
		return &Error{File: m.File, Field: "switches." + field, Msg: fmt.Sprintf(format, a...)}
	}
	for i, list := range [][]string{s.CC, s.GSO} {
		if list != nil && len(list) == 0 {
			return bad([]string{"quic_cc", "quic_gso"}[i], "empty list (leave it out: no switch)")
		}
	}
	if s.CC == nil && s.GSO == nil && s.HyStart == nil {
		return nil
	}
	server := false
	for _, roles := range m.Roles {
		server = server || slices.Contains(roles, "server")
	}
	if !server {
		return &Error{File: m.File, Field: "switches", Msg: "the image plays no server role (only a server is switched)"}
	}
	for i, cc := range s.CC {
		switch {
		case !nameRE.MatchString(cc) || cc == DefaultCC:
			return bad(fmt.Sprintf("quic_cc[%d]", i), "%q is not a congestion control name", cc)
		case slices.Index(s.CC, cc) != i:
			return bad(fmt.Sprintf("quic_cc[%d]", i), "%q is listed twice", cc)
		}
	}
	if err := checkModes(s.GSO, func(i int) string { return fmt.Sprintf("quic_gso[%d]", i) }, bad); err != nil {
		return err
	}
	for _, cc := range sortedKeys(s.HyStart) {
		if cc != DefaultCC && !slices.Contains(s.CC, cc) {
			return bad("quic_hystart."+cc, "%q is neither %s nor in switches.quic_cc", cc, DefaultCC)
		}
		if len(s.HyStart[cc]) == 0 {
			return bad("quic_hystart."+cc, "empty list (leave the key out)")
		}
		if err := checkModes(s.HyStart[cc], func(i int) string { return fmt.Sprintf("quic_hystart.%s[%d]", cc, i) }, bad); err != nil {
			return err
		}
	}
	return nil
}

func checkModes(list []string, field func(int) string, bad func(string, string, ...any) error) error {
	for i, mode := range list {
		if !slices.Contains(modes, mode) || slices.Index(list, mode) != i {
			return bad(field(i), "%q: want on or off, each once", mode)
		}
	}
	return nil
}
