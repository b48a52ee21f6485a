package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/suites"
)

// fakeRepo makes a checkout with the given manifests and points WIRELAB_ROOT at it.
func fakeRepo(t *testing.T, manifests map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range manifests {
		dir := filepath.Join(root, "images", name)
		must(t, os.MkdirAll(dir, 0o755))
		must(t, os.WriteFile(filepath.Join(dir, "manifest.yml"), []byte(body), 0o644))
		must(t, os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte("FROM scratch\n"), 0o644))
	}
	must(t, os.MkdirAll(filepath.Join(root, "compose"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "compose", "smoke.yml"), []byte("services: {}\n"), 0o644))
	t.Setenv("WIRELAB_ROOT", root)
	return root
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func wl(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = Main(context.Background(), args, &o, &e)
	return code, o.String(), e.String()
}

const okManifest = "name: %s\nimplementation: {name: impl, version: '2.0'}\nroles: {quic: [server]}\n"

func TestListTableAndJSON(t *testing.T) {
	fakeRepo(t, map[string]string{"alpha": strings.ReplaceAll(okManifest, "%s", "alpha")})
	t.Setenv("WIRELAB_DOCKER", "/nonexistent/docker") // list works without an engine
	code, out, errOut := wl("list")
	if code != 0 || !strings.Contains(out, "alpha") || !strings.Contains(out, "2.0") || !strings.Contains(out, "quic:server") {
		t.Fatalf("code %d out %q err %q", code, out, errOut)
	}
	code, out, _ = wl("list", "--json")
	if code != 0 || !strings.Contains(out, `"version": "2.0"`) {
		t.Fatalf("json: code %d out %q", code, out)
	}
}

func TestBrokenManifestExits2NamingFileAndField(t *testing.T) {
	root := fakeRepo(t, map[string]string{"beta": "name: beta\nimplementation: {name: impl}\nroles: {quic: [server]}\n"})
	for _, cmd := range [][]string{{"list"}, {"images"}} {
		code, _, errOut := wl(cmd...)
		want := filepath.Join(root, "images/beta/manifest.yml") + ": implementation.version: missing"
		if code != ExitBadInput || !strings.Contains(errOut, want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Fatalf("%v: code %d, stderr %q; want exit 2 and %q on one line", cmd, code, errOut, want)
		}
	}
}

func TestBadInputExits2(t *testing.T) {
	fakeRepo(t, map[string]string{"alpha": strings.ReplaceAll(okManifest, "%s", "alpha")})
	t.Setenv("WIRELAB_DOCKER", "/nonexistent/docker")
	for _, args := range [][]string{
		{"nosuchcommand"},
		{"list", "--bogus"},
		{"smoke", "--run-id", "Bad ID!"},
		{"smoke", "-j", "0"},
		{"clean", "--run-id", "../x"},
		{"images", "nosuchimage"},
		{"images", "--for", "quic"}, {"quic", "--build-images", "2", "--servers", "nosuch"}, {"images", "nosuch"}, {"images", "-j", "0"},
		{"fuzz"}, {"coverage"}, {"h2"}, {"grpcweb"},
		{"report", "--runs", "quic/nosuch"}, {"report", "--traces", "some"}, {"report", "--diff", "ftp/x"},
	} {
		code, _, errOut := wl(args...)
		if code != ExitBadInput || errOut == "" || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: code %d stderr %q, want exit 2 with one line", args, code, errOut)
		}
	}
}

func TestNoEngineExits3WithOneLine(t *testing.T) {
	fakeRepo(t, map[string]string{"alpha": strings.ReplaceAll(okManifest, "%s", "alpha")})
	t.Setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
	for _, args := range [][]string{{"smoke"}, {"clean"}, {"images"}, {"images", "alpha"}} {
		code, _, errOut := wl(args...)
		if code != ExitEnvironment || !strings.Contains(errOut, "docker engine not reachable") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: code %d stderr %q, want exit 3 and one line", args, code, errOut)
		}
	}
	t.Setenv("WIRELAB_DOCKER", "/nonexistent/docker")
	if code, _, errOut := wl("clean"); code != ExitEnvironment || !strings.Contains(errOut, "not found") {
		t.Errorf("missing docker CLI: code %d stderr %q", code, errOut)
	}
}

func TestHelpListsEveryCommand(t *testing.T) {
	code, out, _ := wl("help")
	if code != 0 {
		t.Fatalf("help exit %d", code)
	}
	for _, c := range commands(suites.All) {
		if !strings.Contains(out, "  "+c.name+" ") {
			t.Errorf("help misses %s", c.name)
		}
	}
	if code, _, _ := wl(); code != ExitBadInput {
		t.Errorf("no arguments: exit %d, want 2", code)
	}
}

// A bad profile stops sim-check with exit 2 naming file and field, before anything starts
// (no Docker engine is reachable here, so reaching it would be exit 3).
func TestSimCheckBadProfileExits2(t *testing.T) {
	root := fakeRepo(t, map[string]string{"alpha": strings.ReplaceAll(okManifest, "%s", "alpha")})
	t.Setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
	dir := filepath.Join(root, "images", "sim")
	must(t, os.MkdirAll(dir, 0o755))
	bad := "profiles:\n  simple-p2p:\n    both: {delay: -5ms}\n"
	must(t, os.WriteFile(filepath.Join(dir, "profiles.yml"), []byte(bad), 0o644))
	code, _, errOut := wl("sim-check", "--quick")
	if code != ExitBadInput || !strings.Contains(errOut, "profiles.yml: profiles.simple-p2p.both.delay") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Fatalf("code %d stderr %q", code, errOut)
	}
	if code, _, errOut := wl("sim-check", "--scenarios", "nosuch"); code != ExitBadInput {
		t.Fatalf("unknown scenario: code %d %q", code, errOut)
	}
}

// wirelab quic validates everything before it starts anything (no engine here: reaching it
// would be exit 3).
func TestQuicBadInputExits2(t *testing.T) {
	root := fakeRepo(t, map[string]string{"alpha": "name: alpha\nimplementation: {name: a, version: '1'}\nroles: {quic: [client, server]}\n"})
	t.Setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
	must(t, os.MkdirAll(filepath.Join(root, "conformance", "quic"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "images", "sim"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "images", "sim", "profiles.yml"), []byte("profiles:\n  simple-p2p: {both: {delay: 15ms}}\n"), 0o644))
	cases := filepath.Join(root, "conformance", "quic", "testcases.yml")
	must(t, os.WriteFile(cases, []byte("cases:\n  - {name: handshake, abbr: H, testcase: handshake, files: [1KiB], checks: [files, bogus]}\n"), 0o644))
	code, _, errOut := wl("quic")
	if code != ExitBadInput || !strings.Contains(errOut, "testcases.yml: cases[0].checks[1]: unknown check") {
		t.Fatalf("bad case file: code %d %q", code, errOut)
	}
	must(t, os.WriteFile(cases, []byte("cases:\n  - {name: handshake, abbr: H, testcase: handshake, files: [1KiB], checks: [files]}\n"), 0o644))
	for _, args := range [][]string{
		{"quic", "--clients", "nosuch"},
		{"quic", "--tests", "nosuch"},
		{"quic", "--profile", "simple-p2p:both.delay=-1s"},
		{"quic", "--image", "broken"},
		{"quic", "--resume"},
		{"quic", "--seed", "x"},
	} {
		if code, _, errOut := wl(args...); code != ExitBadInput || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: code %d %q", args, code, errOut)
		}
	}
	if code, _, errOut := wl("quic"); code != ExitEnvironment {
		t.Errorf("valid input should reach the engine check: code %d %q", code, errOut)
	}
}

// wirelab h2 validates everything before it starts anything.
func TestH2BadInputExits2(t *testing.T) {
	root := fakeRepo(t, map[string]string{"web": "name: web\nimplementation: {name: w, version: '1'}\nroles: {h2: [server]}\n"})
	t.Setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
	must(t, os.MkdirAll(filepath.Join(root, "conformance", "h2"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "images", "sim"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "images", "sim", "profiles.yml"), []byte("profiles:\n  ideal: {}\n"), 0o644))
	sections := filepath.Join(root, "conformance", "h2", "matrix.yml")
	must(t, os.WriteFile(sections, []byte("sections:\n  - {name: h2spec, abbr: S, requirement: RFC 7540, client: nope, testcase: h2spec, timeout: 60s}\n"), 0o644))
	if code, _, errOut := wl("h2"); code != ExitBadInput || !strings.Contains(errOut, "matrix.yml: sections[0] (h2spec): client:") {
		t.Fatalf("bad matrix file: code %d %q", code, errOut)
	}
	must(t, os.WriteFile(sections, []byte("sections:\n  - {name: h2spec, abbr: S, requirement: RFC 7540, client: h2spec, testcase: h2spec, timeout: 60s}\n"), 0o644))
	for _, args := range [][]string{
		{"h2", "--servers", "nosuch"},
		{"h2", "--cases", "nosuch"},
		{"h2", "--profile", "nosuch"},
		{"h2", "--h2spec", "6.9"},
		{"h2", "--resume"},
		{"h2", "--repeat", "0"},
		{"h2", "--upload-size", "-5"},
	} {
		if code, _, errOut := wl(args...); code != ExitBadInput || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: code %d %q", args, code, errOut)
		}
	}
	if code, _, errOut := wl("h2"); code != ExitEnvironment {
		t.Errorf("valid input should reach the engine check: code %d %q", code, errOut)
	}
}

// wirelab grpcweb validates everything before it starts anything.
func TestGrpcwebBadInputExits2(t *testing.T) {
	root := fakeRepo(t, map[string]string{
		"gg":   "name: gg\nimplementation: {name: g, version: '1'}\nroles: {grpcweb: [client, server]}\n",
		"conv": "name: conv\nimplementation: {name: c, version: '1'}\nroles: {grpcweb: [converter]}\n",
	})
	t.Setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
	dir := filepath.Join(root, "conformance", "grpcweb")
	must(t, os.MkdirAll(dir, 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "images", "sim"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "images", "sim", "profiles.yml"), []byte("profiles:\n  ideal: {}\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "cases.yml"), []byte("cases: [{name: empty_unary, abbr: EU, testcase: empty_unary, limit: 20s}]\n"), 0o644))
	chains := filepath.Join(dir, "chains.yml")
	must(t, os.WriteFile(chains, []byte("chains: [{name: wirelab, edge: conv, origin: conv}]\n"), 0o644))
	if code, _, errOut := wl("grpcweb"); code != ExitBadInput || !strings.Contains(errOut, "chains.yml: chains: no \"direct\" chain") {
		t.Fatalf("chains file without the oracle: code %d %q", code, errOut)
	}
	must(t, os.WriteFile(chains, []byte("chains: [{name: direct}, {name: wirelab, edge: conv, origin: conv}]\n"), 0o644))
	for _, args := range [][]string{
		{"grpcweb", "--chains", "nosuch"},
		{"grpcweb", "--cases", "nosuch"},
		{"grpcweb", "--servers", "nosuch"},
		{"grpcweb", "--clients", "nosuch"},
		{"grpcweb", "--profile", "nosuch"},
		{"grpcweb", "--chains-file", "/nonexistent.yml"},
		{"grpcweb", "--resume"},
		{"grpcweb", "--repeat", "0"},
		{"grpcweb", "--shard", "4/3"},
		{"grpcweb", "--shard", "1of3"},
	} {
		if code, _, errOut := wl(args...); code != ExitBadInput || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: code %d %q", args, code, errOut)
		}
	}
	if code, _, errOut := wl("grpcweb", "--chains", "wirelab"); code != ExitEnvironment {
		t.Errorf("valid input should reach the engine check: code %d %q", code, errOut)
	}
	// The default baseline is checked before anything starts: a stale entry (a chain that does
	// not exist) is bad input naming the file and the field; a valid one lets the run start.
	expected := filepath.Join(dir, "expected.yml")
	must(t, os.WriteFile(expected, []byte("expected: [{server: gg, chain: gone, client: gg, case: empty_unary, status: fail, signature: '*', reason: r}]\n"), 0o644))
	if code, _, errOut := wl("grpcweb"); code != ExitBadInput || !strings.Contains(errOut, "expected.yml: expected[0].chain") {
		t.Errorf("stale baseline entry: code %d %q", code, errOut)
	}
	must(t, os.WriteFile(expected, []byte("expected: [{server: gg, chain: wirelab, client: gg, case: empty_unary, status: fail, signature: '*', reason: r}]\n"), 0o644))
	if code, _, errOut := wl("grpcweb"); code != ExitEnvironment {
		t.Errorf("valid baseline should reach the engine check: code %d %q", code, errOut)
	}
}
