package manifest

import (
	"errors"
	"strings"
	"testing"
)

const switched = `name: demo
implementation: {name: x, version: '1'}
roles: {bench: [server]}
`

// ngtcp2's declaration: three algorithms, GSO on only, HyStart++ on/off with its CUBIC (also as
// the default).
const ngtcp2Like = switched + `switches:
  quic_cc: [cubic, reno, bbr]
  quic_gso: [on]
  quic_hystart: {default: [on, off], cubic: [on, off]}
`

func TestSwitchesAdmit(t *testing.T) {
	m, err := Parse("images/demo/manifest.yml", "images/demo", []byte(ngtcp2Like))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cc, gso, hystart string
		ok               bool
		why              string
	}{
		{"", "", "", true, ""},
		{"bbr", "on", "", true, ""},
		{"", "", "off", true, ""},
		{"cubic", "", "on", true, ""},
		{"vegas", "", "", false, "switches.quic_cc has no vegas (declared: cubic, reno, bbr)"},
		{"", "off", "", false, "switches.quic_gso has no off (declared: on)"},
		{"bbr", "", "off", false, "switches.quic_hystart.bbr has no off (declared: none)"},
		{"reno", "on", "on", false, "switches.quic_hystart.reno has no on (declared: none)"},
	} {
		if ok, why := m.Switches.Admits(c.cc, c.gso, c.hystart); ok != c.ok || why != c.why {
			t.Errorf("Admits(%q, %q, %q) = %v %q, want %v %q", c.cc, c.gso, c.hystart, ok, why, c.ok, c.why)
		}
	}
	// Nothing declared: every switch asked for is refused, naming the field.
	var none Switches
	if ok, why := none.Admits("", "on", ""); ok || why != "switches.quic_gso has no on (declared: none)" {
		t.Errorf("no switches: %v %q", ok, why)
	}
	if ok, why := none.Admits("", "", "off"); ok || why != "switches.quic_hystart.default has no off (declared: none)" {
		t.Errorf("no switches: %v %q", ok, why)
	}
	if ok, _ := none.Admits("", "", ""); !ok {
		t.Error("no switches, none asked: refused")
	}
}

// A malformed declaration is one line naming the file and the field.
func TestSwitchesRejectedNamingField(t *testing.T) {
	for _, c := range []struct{ name, yaml, field string }{
		{"bad mode", "switches: {quic_gso: [yes]}", "switches.quic_gso[0]"},
		{"mode twice", "switches: {quic_gso: [on, on]}", "switches.quic_gso[1]"},
		{"bad cc", "switches: {quic_cc: [Cubic!]}", "switches.quic_cc[0]"},
		{"cc named default", "switches: {quic_cc: [default]}", "switches.quic_cc[0]"},
		{"cc twice", "switches: {quic_cc: [bbr, bbr]}", "switches.quic_cc[1]"},
		{"empty cc", "switches: {quic_cc: []}", "switches.quic_cc"},
		{"hystart for an undeclared cc", "switches: {quic_cc: [cubic], quic_hystart: {bbr: [on]}}", "switches.quic_hystart.bbr"},
		{"hystart empty", "switches: {quic_hystart: {default: []}}", "switches.quic_hystart.default"},
		{"hystart bad mode", "switches: {quic_hystart: {default: [on, maybe]}}", "switches.quic_hystart.default[1]"},
		{"unknown switch", "switches: {quic_pacing: [on]}", "quic_pacing"},
		{"no server role", "switches: {quic_gso: [on]}", "switches"},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := switched + c.yaml + "\n"
			if c.name == "no server role" {
				doc = strings.Replace(doc, "bench: [server]", "bench: [client]", 1)
			}
			_, err := Parse("images/demo/manifest.yml", "images/demo", []byte(doc))
			var me *Error
			if !errors.As(err, &me) || me.Field != c.field || strings.Contains(err.Error(), "\n") ||
				!strings.HasPrefix(err.Error(), "images/demo/manifest.yml: "+c.field+": ") {
				t.Fatalf("want one line naming images/demo/manifest.yml and %s, got %v", c.field, err)
			}
		})
	}
}
