package endpoint

import (
	"path/filepath"
	"regexp"
	"testing"

	"github.com/wirelab/wirelab/internal/benchsuite"
	"github.com/wirelab/wirelab/internal/manifest"
)

// Every bench server's script takes exactly the switches its manifest declares (manifest
// switches, which make bench's plan holds a sweep to): for each congestion control of the bench
// file (and one it does not know), GSO and HyStart++ mode, unset or not, a declared combination
// starts the server and any other answers 127 before /setup.sh, the safety net behind the plan.
// Values nobody declares (auto, maybe) are 127 everywhere.
func TestBenchServerSwitchesAsDeclared(t *testing.T) {
	ms, err := manifest.LoadDir(imagesDir)
	if err != nil {
		t.Fatal(err)
	}
	bench, err := benchsuite.Load(filepath.Join(imagesDir, "..", "conformance", "bench", "bench.yml"))
	if err != nil {
		t.Fatal(err)
	}
	ccs := append([]string{"", "newreno"}, bench.CongestionControls...)
	gsos := append([]string{""}, bench.GSOModes...)
	hystarts := append([]string{""}, bench.HyStartModes...)
	servers := 0
	for _, m := range ms {
		if !m.Plays("bench", "server") {
			continue
		}
		servers++
		t.Run(m.Name, func(t *testing.T) {
			t.Parallel()
			img := gateImageNamed(t, m.Name)
			type want struct {
				cc, gso, hystart string
				runs             bool
			}
			var runs []run
			var wants []want
			ask := func(cc, g, h string) {
				ok, _ := m.Switches.Admits(cc, g, h)
				runs = append(runs, run{env: append([]string{"ROLE=server", "TESTCASE=bench", "QUIC_CC=" + cc, "QUIC_GSO=" + g, "QUIC_HYSTART=" + h}, baseEnv...)})
				wants = append(wants, want{cc, g, h, ok})
			}
			for _, cc := range ccs {
				for _, g := range gsos {
					for _, h := range hystarts {
						ask(cc, g, h)
					}
				}
			}
			ask("", "auto", "")
			ask("", "", "maybe")
			reach := regexp.MustCompile("^" + img.reach["server"])
			for i, r := range runInFakeRoot(t, img.fakeImage, runs) {
				w := wants[i]
				started := r.code != 127 && r.calledMatch(reach)
				if started != w.runs || (!started && (r.code != 127 || len(r.calls) > 0)) {
					t.Errorf("QUIC_CC=%q QUIC_GSO=%q QUIC_HYSTART=%q: exit %d, calls %q; want started=%v as %s declares (else 127 before setup.sh): %s",
						w.cc, w.gso, w.hystart, r.code, r.calls, w.runs, m.File, r.lastLine())
				}
			}
		})
	}
	if servers < 6 {
		t.Errorf("%d bench servers in %s, want the six (aioquic, caddy, haproxy, nginx, ngtcp2, quic-go)", servers, imagesDir)
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
