package endpoint

import (
	"regexp"
	"testing"
)

// The bench servers' answers to QUIC_CC, QUIC_GSO and QUIC_HYSTART (make bench --congestion,
// --gso, --hystart), decided before they touch the network: 127 where the image cannot do what is
// asked, else its server starts. quic-go, caddy (quic-go) and nginx (quic_gso) switch GSO; ngtcp2
// always sends with GSO; haproxy 3.0 and aioquic never do. haproxy (tune.quic.cc-hystart) and
// ngtcp2 (a libngtcp2 without HyStart++) switch HyStart++ with their cubic only.
func TestBenchServerSwitches(t *testing.T) {
	const runs, unsupported = true, false
	type c struct {
		cc, gso, hystart string
		want             bool
	}
	for name, cases := range map[string][]c{
		"quic-go": {{"", "", "", runs}, {"", "on", "", runs}, {"", "off", "", runs}, {"", "auto", "", unsupported}, {"bbr", "", "", unsupported},
			{"", "", "off", unsupported}},
		"caddy": {{"", "on", "", runs}, {"", "off", "", runs}, {"cubic", "", "", unsupported}, {"", "", "on", unsupported}},
		"nginx": {{"", "on", "", runs}, {"", "off", "", runs}, {"", "auto", "", unsupported}, {"", "", "off", unsupported}, {"reno", "", "", unsupported}},
		"ngtcp2": {{"", "", "", runs}, {"", "on", "", runs}, {"", "off", "", unsupported}, {"bbr", "", "", runs}, {"newreno", "", "", unsupported},
			{"", "", "on", runs}, {"cubic", "", "off", runs}, {"bbr", "", "off", unsupported}, {"reno", "", "on", unsupported}, {"", "", "maybe", unsupported}},
		"haproxy": {{"", "off", "", runs}, {"", "on", "", unsupported}, {"reno", "", "", runs}, {"bbr", "", "", unsupported},
			{"", "", "on", runs}, {"cubic", "", "off", runs}, {"", "", "maybe", unsupported}, {"reno", "", "on", unsupported}},
		"aioquic": {{"", "off", "", runs}, {"", "on", "", unsupported}, {"cubic", "", "", unsupported}, {"", "", "on", unsupported}},
	} {
		img := gateImageNamed(t, name)
		var rs []run
		for _, x := range cases {
			rs = append(rs, run{env: append([]string{"ROLE=server", "TESTCASE=bench", "QUIC_CC=" + x.cc, "QUIC_GSO=" + x.gso, "QUIC_HYSTART=" + x.hystart}, baseEnv...)})
		}
		reach := regexp.MustCompile("^" + img.reach["server"])
		for i, r := range runInFakeRoot(t, img.fakeImage, rs) {
			x := cases[i]
			if started := r.code != 127 && r.calledMatch(reach); started != x.want || (!started && (r.code != 127 || len(r.calls) > 0)) {
				t.Errorf("%s with QUIC_CC=%q QUIC_GSO=%q QUIC_HYSTART=%q: exit %d, calls %q, want started=%v (else 127 before setup.sh): %s",
					name, x.cc, x.gso, x.hystart, r.code, r.calls, x.want, r.lastLine())
			}
		}
	}
}

func gateImageNamed(t *testing.T, name string) gateImage {
	t.Helper()
	for _, img := range gateImages {
		if img.name == name {
			return img
		}
	}
	t.Fatalf("%s is not in gateImages", name)
	return gateImage{}
}
