package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/tshark/tsharktest"
)

// Bad input to fuzz-seeds: exit 2, one line naming the file or flag, nothing written. These
// are decided before docker is asked (no engine here would be exit 3).
func TestFuzzSeedsBadInputExits2(t *testing.T) {
	fakeRepo(t, nil)
	t.Setenv("WIRELAB_DOCKER", "/nonexistent/docker")
	dir := t.TempDir()
	noCells := filepath.Join(dir, "run")
	must(t, os.MkdirAll(filepath.Join(noCells, "aioquic_curl", "handshake"), 0o755))
	out := filepath.Join(dir, "out")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{}, "--run: not set"},
		{[]string{"--run", filepath.Join(dir, "nosuch")}, filepath.Join(dir, "nosuch") + ": no such run folder"},
		{[]string{"--run", noCells}, noCells + ": no http3 cells"},
		{[]string{"--run", noCells, "extra"}, `unexpected argument "extra"`},
		{[]string{"--bogus"}, "flag provided but not defined"},
		{[]string{"--run", noCells, "--out", ""}, "--out: empty"},
	} {
		code, _, errOut := wl(append([]string{"fuzz-seeds", "--out", out}, c.args...)...)
		if code != ExitBadInput || !strings.Contains(errOut, c.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: code %d stderr %q, want exit 2 and one line with %q", c.args, code, errOut, c.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("bad input wrote %s", out)
	}
	// A good run but no docker to run tshark with: environment, exit 3, nothing written.
	must(t, os.MkdirAll(filepath.Join(noCells, "aioquic_curl", "http3"), 0o755))
	code, _, errOut := wl("fuzz-seeds", "--run", noCells, "--out", out)
	if code != ExitEnvironment || !strings.Contains(errOut, "tshark image") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Errorf("no docker: code %d stderr %q, want exit 3 and one line", code, errOut)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("no docker wrote %s", out)
	}
}

// The real fixture (internal/fuzzseeds/testdata) as a one-cell run: seeds written and reported;
// the same run with a damaged trace beside it: exit 2, one line naming that trace, nothing written.
func TestFuzzSeedsOnRealTrace(t *testing.T) {
	tsharktest.Need(t)
	fakeRepo(t, nil)
	fixture, err := os.ReadFile("../fuzzseeds/testdata/h3-aioquic.pcapng")
	must(t, err)
	dir := t.TempDir()
	run, out := filepath.Join(dir, "run"), filepath.Join(dir, "out")
	put := func(cell string, b []byte) string {
		p := filepath.Join(run, cell, "http3", "sim", "trace_node_right.pcapng")
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, b, 0o644))
		return p
	}
	put("aioquic_aioquic", fixture)
	must(t, os.MkdirAll(filepath.Join(run, "quiche_aioquic", "http3"), 0o755)) // no trace: skipped

	code, stdout, errOut := wl("fuzz-seeds", "--run", run, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"aioquic_aioquic: 12 streams",
		"c2s: 28 encoder bytes, 3 field sections; s2c: 3 encoder bytes, 3 field sections",
		"trace-aioquic_aioquic-c2s-d2399416 (table 4096, blocked 16, 5 records)",
		"quiche_aioquic: skipped: no decrypted trace",
		"fuzz-seeds: 2 seeds from 2 http3 cells (1 skipped)",
		"  nghttp3-h3-conn: trace-aioquic_aioquic-client-",
		"(table 4096, blocked 16, 6 peer streams, ",
		"1 request streams cut at ",
		"fuzz-seeds: 2 nghttp3-h3-conn seeds (0 cells rejected)",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output misses %q:\n%s", want, stdout)
		}
	}
	seeds, _ := os.ReadDir(filepath.Join(out, "fuzz", "seeds", "nghttp3-qpack-decoder"))
	if len(seeds) != 2 {
		t.Errorf("%d seed files, want 2", len(seeds))
	}
	conn, _ := os.ReadDir(filepath.Join(out, "fuzz", "seeds", "nghttp3-h3-conn"))
	if len(conn) != 2 || !strings.HasPrefix(conn[0].Name(), "trace-aioquic_aioquic-client-") || !strings.HasPrefix(conn[1].Name(), "trace-aioquic_aioquic-server-") {
		t.Errorf("h3-conn seed files %v", conn)
	}

	damaged := append([]byte(nil), fixture...)
	damaged = damaged[:len(damaged)*2/3] // cut in the middle of a packet
	bad := put("zz_bad", damaged)
	out2 := filepath.Join(dir, "out2")
	code, _, errOut = wl("fuzz-seeds", "--run", run, "--out", out2)
	if code != ExitBadInput || !strings.HasPrefix(errOut, "wirelab fuzz-seeds: "+bad+": ") ||
		!strings.Contains(errOut, "cut short") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Errorf("damaged trace: exit %d stderr %q", code, errOut)
	}
	if _, err := os.Stat(out2); err == nil {
		t.Errorf("a damaged trace still wrote %s", out2)
	}
}
