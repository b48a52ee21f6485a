package benchsuite

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/wirelab/wirelab/internal/prereq"
)

// The bench servers' answers to QUIC_GSO (make bench --gso), decided before they touch the
// network: 127 where the image cannot do what is asked (the runner makes that cell unsupported
// with the server's reason, as for QUIC_CC), else on to /setup.sh, which only exists in the
// image (here: exit 1). quic-go, caddy (quic-go) and nginx (quic_gso) switch; ngtcp2 always
// sends with GSO; haproxy 3.0 and aioquic never do.
func TestImagesAnswerQUICGSO(t *testing.T) {
	bash := scriptShell(t)
	const runs, unsupported = 1, 127
	for _, c := range []struct {
		script, gso string
		want        int
	}{
		{"quic-go/run_endpoint.sh", "", runs}, {"quic-go/run_endpoint.sh", "on", runs}, {"quic-go/run_endpoint.sh", "off", runs},
		{"quic-go/run_endpoint.sh", "auto", unsupported},
		{"caddy/run_endpoint.sh", "on", runs}, {"caddy/run_endpoint.sh", "off", runs},
		{"nginx/run_h2.sh", "on", runs}, {"nginx/run_h2.sh", "off", runs}, {"nginx/run_h2.sh", "auto", unsupported},
		{"ngtcp2/run_endpoint.sh", "", runs}, {"ngtcp2/run_endpoint.sh", "on", runs}, {"ngtcp2/run_endpoint.sh", "off", unsupported},
		{"haproxy/run_h2.sh", "off", runs}, {"haproxy/run_h2.sh", "on", unsupported},
		{"aioquic/run_endpoint.sh", "off", runs}, {"aioquic/run_endpoint.sh", "on", unsupported},
	} {
		if code, out := runBenchServerScript(t, bash, c.script, "QUIC_GSO="+c.gso); code != c.want {
			t.Errorf("%s with QUIC_GSO=%q: exit %d, want %d: %s", c.script, c.gso, code, c.want, out)
		}
	}
}

// The same for QUIC_HYSTART (make bench --hystart): haproxy (tune.quic.cc-hystart) switches with
// its cubic (the sweep's subject), ngtcp2 (a libngtcp2 without HyStart++) with its cubic only; nginx, caddy, quic-go
// and aioquic have no switch.
func TestImagesAnswerQUICHyStart(t *testing.T) {
	bash := scriptShell(t)
	const runs, unsupported = 1, 127
	for _, c := range []struct {
		script, hystart, cc string
		want                int
	}{
		{"haproxy/run_h2.sh", "on", "", runs}, {"haproxy/run_h2.sh", "off", "cubic", runs}, {"haproxy/run_h2.sh", "maybe", "", unsupported},
		{"haproxy/run_h2.sh", "on", "reno", unsupported},
		{"ngtcp2/run_endpoint.sh", "", "", runs}, {"ngtcp2/run_endpoint.sh", "on", "", runs}, {"ngtcp2/run_endpoint.sh", "off", "cubic", runs},
		{"ngtcp2/run_endpoint.sh", "off", "bbr", unsupported}, {"ngtcp2/run_endpoint.sh", "on", "reno", unsupported},
		{"ngtcp2/run_endpoint.sh", "maybe", "", unsupported},
		{"nginx/run_h2.sh", "", "", runs}, {"nginx/run_h2.sh", "off", "", unsupported}, {"caddy/run_endpoint.sh", "on", "", unsupported},
		{"quic-go/run_endpoint.sh", "off", "", unsupported}, {"aioquic/run_endpoint.sh", "on", "", unsupported},
	} {
		if code, out := runBenchServerScript(t, bash, c.script, "QUIC_HYSTART="+c.hystart, "QUIC_CC="+c.cc); code != c.want {
			t.Errorf("%s with QUIC_HYSTART=%q QUIC_CC=%q: exit %d, want %d: %s", c.script, c.hystart, c.cc, code, c.want, out)
		}
	}
}

// scriptShell is the bash the image scripts run with here. Where they cannot run safely outside
// their image (a machine with /setup.sh, where they would run past their checks) or without
// bash, the test lacks a prerequisite: it skips, or fails in CI.
func scriptShell(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat("/setup.sh"); err == nil {
		prereq.Missing(t, "a machine without /setup.sh (the image scripts would run past their checks)", "CI runs on a plain Debian host, not in an image")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		prereq.Missing(t, "bash", "CI's Debian host has it")
	}
	return bash
}

// runBenchServerScript runs an image's server script as a bench server with env and returns its
// exit code and output.
func runBenchServerScript(t *testing.T, bash, script string, env ...string) (int, []byte) {
	t.Helper()
	cmd := exec.Command(bash, filepath.Join("..", "..", "images", filepath.FromSlash(script)))
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "ROLE=server", "TESTCASE=bench"}, env...)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), out
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, out
}
