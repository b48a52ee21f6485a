package versions

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/manifest"
)

func TestDebCompare(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"1.26.3-3+deb13u11", "1.26.3-3+deb13u7", 1}, // digit runs compare as numbers
		{"1.0-1", "1.0-1+deb13u1", -1},               // a security update is newer
		{"1.15.0-1~bpo13+1", "1.15.0-1", -1},         // ~ sorts before the end
		{"1.0~rc1-1", "1.0-1", -1},
		{"4.21c-5", "4.21-5", 1}, // a letter sorts after the end
		{"1.0a-1", "1.0+-1", -1}, // letters before other characters
		{"1:0.1-1", "9.9-1", 1},  // the epoch first
		{"2.0", "2.0-0", 0},      // no revision is revision 0
		{"1.007-1", "1.7-1", 0},  // leading zeros do not count
		{"8.14.1-2+deb13u7", "8.14.1-2+deb13u7", 0},
		{"99999999999999999999.1", "99999999999999999999.0", 1}, // longer than int64
	}
	for _, c := range cases {
		if got := debCompare(c.a, c.b); got != c.want {
			t.Errorf("debCompare(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := debCompare(c.b, c.a); got != -c.want {
			t.Errorf("debCompare(%q, %q) = %d, want %d", c.b, c.a, got, -c.want)
		}
	}
}

// What apt-cache madison printed in wirelab/base:trixie with trixie-backports added (2026-11-22).
const madisonOut = `      curl | 8.21.0-2~bpo13+1 | http://deb.debian.org/debian trixie-backports/main amd64 Packages
      curl | 8.14.1-2+deb13u7 | http://deb.debian.org/debian-security trixie-security/main amd64 Packages
      curl | 8.14.1-2+deb13u5 | http://deb.debian.org/debian trixie/main amd64 Packages
      curl | 8.14.1-2+deb13u5 | http://deb.debian.org/debian trixie/main Sources
   nghttp3 |    1.8.0-1 | http://deb.debian.org/debian trixie/main Sources
   nghttp3 | 1.15.0-1~bpo13+1 | http://deb.debian.org/debian trixie-backports/main Sources
N: Unable to locate package nosuchpkg
`

func TestNewestDebianFromMadison(t *testing.T) {
	es := parseMadison(madisonOut)
	if len(es) != 6 {
		t.Fatalf("parsed %d entries, want 6: %+v", len(es), es)
	}
	cases := []struct {
		pkg                 string
		backports           bool
		wantVersion, wantIn string
	}{
		{"curl", false, "8.14.1-2+deb13u7", "trixie-security"}, // backports do not count for a trixie pin
		{"curl", true, "8.21.0-2~bpo13+1", "trixie-backports"},
		{"nghttp3", true, "1.15.0-1~bpo13+1", "trixie-backports"}, // a source package
		{"nghttp3", false, "1.8.0-1", "trixie"},
		{"nosuchpkg", false, "", ""},
	}
	for _, c := range cases {
		v, in := newestDebian(es, c.pkg, c.backports)
		if v != c.wantVersion || in != c.wantIn {
			t.Errorf("%s (backports %v): got %q in %q, want %q in %q", c.pkg, c.backports, v, in, c.wantVersion, c.wantIn)
		}
	}
}

func TestDebianStatus(t *testing.T) {
	for _, c := range []struct{ pinned, newest, want string }{
		{"8.14.1-2+deb13u5", "8.14.1-2+deb13u7", StatusOutdated},
		{"8.14.1-2+deb13u7", "8.14.1-2+deb13u7", StatusUpToDate},
		{"8.14.1-2+deb13u9", "8.14.1-2+deb13u7", StatusUnknown}, // pinned but no longer installable
	} {
		if got, _ := debianStatus(c.pinned, c.newest); got != c.want {
			t.Errorf("%s vs %s: %s, want %s", c.pinned, c.newest, got, c.want)
		}
	}
}

func versionsManifest(t *testing.T, name, body string) *manifest.Manifest {
	t.Helper()
	m, err := manifest.Parse("images/"+name+"/manifest.yml", "images/"+name, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestPlanVersionsAsksTheRightRegistry(t *testing.T) {
	ms := []*manifest.Manifest{
		versionsManifest(t, "qg", "name: qg\nroles: {quic: [client]}\nimplementation: {name: q, version: '0.65.0', module: github.com/quic-go/quic-go}"),
		versionsManifest(t, "fz", "name: fz\nroles: {tool: [x]}\nimplementation: {name: f, version: 'nghttp3 1.15.0-1~bpo13+1, afl++ 4.21c-5', packages: [nghttp3, afl++]}"),
		versionsManifest(t, "own", "name: own\nroles: {tool: [x]}\nimplementation: {name: o, version: '1'}"),
	}
	rows := Plan(ms)
	want := []Row{
		{Image: "qg", Registry: RegistryGo, Package: "github.com/quic-go/quic-go", Pinned: "0.65.0"},
		{Image: "fz", Registry: RegistryDebian, Package: "nghttp3", Pinned: "1.15.0-1~bpo13+1"},
		{Image: "fz", Registry: RegistryDebian, Package: "afl++", Pinned: "4.21c-5"},
		{Image: "own", Pinned: "1", Status: StatusLocal},
	}
	if len(rows) != len(want) {
		t.Fatalf("got %d rows: %+v", len(rows), rows)
	}
	for i, w := range want {
		r := rows[i]
		if r.Image != w.Image || r.Registry != w.Registry || r.Package != w.Package || r.Pinned != w.Pinned || r.Status != w.Status {
			t.Errorf("row %d: got %+v, want %+v", i, r, w)
		}
	}
	if !wantsBackports(rows[1].Pinned) || wantsBackports(rows[2].Pinned) {
		t.Error("backports: only the ~bpo pin wants them")
	}
	if got := packagesFor(rows, RegistryDebian); strings.Join(got, " ") != "nghttp3 afl++" {
		t.Errorf("packagesFor: %v", got)
	}
}

func TestVersionsTableAndJSON(t *testing.T) {
	rows := []Row{
		{Image: "nginx", Registry: RegistryDebian, Package: "nginx", Pinned: "1.26.3-3+deb13u7", Newest: "1.26.3-3+deb13u11", Status: StatusOutdated, Where: "trixie-security"},
		{Image: "sim", Pinned: "1", Status: StatusLocal},
	}
	var b bytes.Buffer
	must(t, WriteTable(&b, rows))
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "IMAGE ") {
		t.Fatalf("table:\n%s", b.String())
	}
	// Aligned: every column starts at the same offset on every line.
	col := strings.Index(lines[0], "STATUS")
	if strings.Index(lines[1], StatusOutdated) != col || strings.Index(lines[2], StatusLocal) != col {
		t.Fatalf("STATUS column not aligned:\n%s", b.String())
	}
	if !strings.Contains(lines[2], " - ") {
		t.Errorf("empty cells should read -: %q", lines[2])
	}
	b.Reset()
	must(t, WriteJSON(&b, rows))
	var back []map[string]string
	must(t, json.Unmarshal(b.Bytes(), &back))
	if back[0]["newest"] != "1.26.3-3+deb13u11" || back[0]["status"] != "OUTDATED" || back[1]["registry"] != "" {
		t.Errorf("json: %s", b.String())
	}
}

// A Go module pinned in the manifest must be what go.mod selects; the check needs no network
// (the module is replaced by a local folder).
func TestGoPinMustMatchGoMod(t *testing.T) {
	root := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(root, "dep"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "dep", "go.mod"), []byte("module example.com/dep\n\ngo 1.24\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/lab\n\ngo 1.24\n\nrequire example.com/dep v1.2.3\n\nreplace example.com/dep => ./dep\n"), 0o644))
	row := func(module, pinned string) []Row {
		return []Row{{Image: "x", Registry: RegistryGo, Package: module, Pinned: pinned, manifest: "images/x/manifest.yml"}}
	}
	ctx := context.Background()
	for _, pinned := range []string{"1.2.3", "v1.2.3"} {
		if err := CheckGoPins(ctx, "go", root, row("example.com/dep", pinned)); err != nil {
			t.Fatalf("matching pin %s: %v", pinned, err)
		}
	}
	for _, c := range []struct{ module, pinned, field string }{
		{"example.com/dep", "1.2.0", "implementation.version"},
		{"example.com/other", "1.0.0", "implementation.module"},
	} {
		err := CheckGoPins(ctx, "go", root, row(c.module, c.pinned))
		me, ok := err.(*manifest.Error)
		if !ok || me.Field != c.field || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s %s: got %v, want a one-line manifest error on %s", c.module, c.pinned, err, c.field)
		}
	}
}

// A v2+ module without go.mod (h2spec) is selected as vX.Y.Z+incompatible; its manifest pins X.Y.Z.
func TestGoPinMatchesIncompatibleSelection(t *testing.T) {
	root := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(root, "dep"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "dep", "go.mod"), []byte("module example.com/dep\n\ngo 1.24\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/lab\n\ngo 1.24\n\nrequire example.com/dep v2.2.1+incompatible\n\nreplace example.com/dep => ./dep\n"), 0o644))
	ctx := context.Background()
	for _, pinned := range []string{"2.2.1", "v2.2.1+incompatible"} {
		row := []Row{{Image: "x", Registry: RegistryGo, Package: "example.com/dep", Pinned: pinned, manifest: "images/x/manifest.yml"}}
		if err := CheckGoPins(ctx, "go", root, row); err != nil {
			t.Errorf("pin %s: %v", pinned, err)
		}
	}
	row := []Row{{Image: "x", Registry: RegistryGo, Package: "example.com/dep", Pinned: "2.2.0", manifest: "images/x/manifest.yml"}}
	if err := CheckGoPins(ctx, "go", root, row); err == nil {
		t.Error("pin 2.2.0 against v2.2.1+incompatible: no error")
	}
}

func TestPlainGoVersion(t *testing.T) {
	for in, want := range map[string]string{
		"v2.2.1+incompatible":                "2.2.1",
		"2.2.1":                              "2.2.1",
		"v0.65.0":                            "0.65.0",
		"v0.0.0-20240102030405-0123456789ab": "0.0.0-20240102030405-0123456789ab",
		"v2.0.1-0.20240102030405-0123456789ab+incompatible": "2.0.1-0.20240102030405-0123456789ab",
		"v1.2.3-rc.1": "1.2.3-rc.1",
	} {
		if got := plainGoVersion(in); got != want {
			t.Errorf("plainGoVersion(%q) = %q, want %q", in, got, want)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
