package benchsuite

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The bench servers' answers to QUIC_GSO (make bench --gso), decided before they touch the
// network: 127 where the image cannot do what is asked (the runner makes that cell unsupported
// with the server's reason, as for QUIC_CC), else on to /setup.sh, which only exists in the
// image (here: exit 1). quic-go, caddy (quic-go) and nginx (quic_gso) switch; ngtcp2 always
// sends with GSO; haproxy 3.0 and aioquic never do.
func TestImagesAnswerQUICGSO(t *testing.T) {
	if _, err := os.Stat("/setup.sh"); err == nil {
		t.Skip("/setup.sh exists here: the scripts would run past their checks")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
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
		cmd := exec.Command(bash, filepath.Join("..", "..", "images", filepath.FromSlash(c.script)))
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "ROLE=server", "TESTCASE=bench", "QUIC_GSO=" + c.gso}
		out, err := cmd.CombinedOutput()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.want {
			t.Errorf("%s with QUIC_GSO=%q: exit %d, want %d: %s", c.script, c.gso, code, c.want, out)
		}
	}
}
