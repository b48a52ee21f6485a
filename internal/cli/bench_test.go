package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wirelab bench validates everything before it starts anything: each bad flag or file is one
// line naming it, exit 2.
func TestBenchBadInputExits2(t *testing.T) {
	root := fakeRepo(t, map[string]string{
		"web":  "name: web\nimplementation: {name: w, version: '1'}\nroles: {bench: [server]}\nalpn: {bench: [http/1.1, h2]}\n",
		"curl": "name: curl\nimplementation: {name: c, version: '1'}\nroles: {bench: [client]}\n",
	})
	t.Setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
	must(t, os.MkdirAll(filepath.Join(root, "conformance", "bench"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "images", "sim"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "images", "sim", "profiles.yml"), []byte("profiles:\n  lte: {}\n  wifi: {}\n"), 0o644))
	file := filepath.Join(root, "conformance", "bench", "bench.yml")
	good := `repetitions: 3
sizes: [{name: 1KB, bytes: 1000}, {name: 1MB, bytes: 1000000}]
protocols:
  - {name: h1, alpn: http/1.1, curl: --http1.1, http_version: "1.1", transport: tcp}
  - {name: h3, alpn: h3, curl: --http3-only, http_version: "3", transport: udp}
profiles: [{name: lte}, {name: wifi, skip_sizes: [1MB]}]
congestion_controls: [cubic, bbr]
gso_modes: [on, off]
quick: {servers: [web], profiles: [lte], sizes: [1KB], repetitions: 2}
`
	for bad, want := range map[string]string{
		strings.Replace(good, "transport: udp", "transport: sctp", 1):      "bench.yml: protocols[1].transport:",
		strings.Replace(good, "skip_sizes: [1MB]", "skip_sizes: [2MB]", 1): "bench.yml: profiles[1].skip_sizes[0]:",
		strings.Replace(good, "profiles: [lte]", "profiles: [3g]", 1):      "bench.yml: quick.profiles[0]:",
		strings.Replace(good, "repetitions: 3", "repetitions: 0", 1):       "bench.yml: repetitions:",
		strings.Replace(good, "[cubic, bbr]", "[cubic, cubic]", 1):         "bench.yml: congestion_controls[1]:",
		strings.Replace(good, "[cubic, bbr]", "[cubic, gso-x]", 1):         "bench.yml: congestion_controls[1]:",
		strings.Replace(good, "[on, off]", "[on, auto]", 1):                "bench.yml: gso_modes[1]:",
		strings.Replace(good, "[on, off]", "[off, off]", 1):                "bench.yml: gso_modes[1]:",
	} {
		must(t, os.WriteFile(file, []byte(bad), 0o644))
		if code, _, errOut := wl("bench"); code != ExitBadInput || !strings.Contains(errOut, want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("want %q: code %d %q", want, code, errOut)
		}
	}
	must(t, os.WriteFile(file, []byte(good), 0o644))
	for args, want := range map[string]string{
		"--servers nosuch":          "--servers: unknown server",
		"--profiles 3g":             "--profiles: unknown profile",
		"--sizes 1KB,3KB":           "--sizes: unknown size",
		"--protocols h9":            "--protocols: unknown protocol",
		"--congestion vegas":        `--congestion: unknown congestion control "vegas"`,
		"--gso maybe":               `--gso: unknown GSO mode "maybe"`,
		"--reps -1":                 "--reps -1",
		"--quick=yes":               "quick",
		"--repeat 2":                "--repeat 2",
		"--bench-file /nonexistent": "nonexistent",
	} {
		if code, _, errOut := wl(append([]string{"bench"}, strings.Fields(args)...)...); code != ExitBadInput || !strings.Contains(errOut, want) ||
			strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%s: want %q: code %d %q", args, want, code, errOut)
		}
	}
	// A profile the bench file names but the sim does not know: bad input naming it.
	must(t, os.WriteFile(file, []byte(strings.Replace(good, "{name: lte}", "{name: lte}, {name: nosuch}", 1)), 0o644))
	if code, _, errOut := wl("bench", "--profiles", "nosuch"); code != ExitBadInput || !strings.Contains(errOut, "profile nosuch") {
		t.Errorf("unknown sim profile: code %d %q", code, errOut)
	}
	must(t, os.WriteFile(file, []byte(good), 0o644))
	if code, _, errOut := wl("bench", "--quick"); code != ExitEnvironment {
		t.Errorf("valid input should reach the engine check: code %d %q", code, errOut)
	}
}
