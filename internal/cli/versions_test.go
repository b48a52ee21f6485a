package cli

import (
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/versions"
)

func TestVersionsBadInputExits2(t *testing.T) {
	fakeRepo(t, map[string]string{"alpha": "name: alpha\nroles: {quic: [server]}\nimplementation: {name: a, version: '1', packages: [Not_A_Package]}\n"})
	code, _, errOut := wl("versions")
	if code != ExitBadInput || !strings.Contains(errOut, "implementation.packages[0]") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Fatalf("bad package name: code %d stderr %q", code, errOut)
	}
	fakeRepo(t, map[string]string{"alpha": strings.ReplaceAll(okManifest, "%s", "alpha")})
	for _, args := range [][]string{{"versions", "nosuchimage"}, {"versions", "--bogus"}} {
		if code, _, errOut := wl(args...); code != ExitBadInput || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: code %d stderr %q", args, code, errOut)
		}
	}
	// An image made here asks no registry: the table alone, exit 0, even without docker.
	t.Setenv("WIRELAB_DOCKER", "/nonexistent/docker")
	code, out, errOut := wl("versions")
	if code != 0 || !strings.Contains(out, "alpha") || !strings.Contains(out, versions.StatusLocal) {
		t.Fatalf("local image: code %d out %q err %q", code, out, errOut)
	}
}
