package endpoint

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/prereq"
)

// imagesDir is the repository's images/ folder, seen from this package.
const imagesDir = ".."

// imagePATH is the PATH of the images (Debian's default for root).
const imagePATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// fakeImage is what fakeroot.sh needs to build an image's root: its packages' programs to stub,
// the main packages that answer -check for real, and its packages' files the script reads.
type fakeImage struct {
	name     string
	programs []string          // commands its Debian packages install (stubbed)
	checks   []string          // its programs that decide support themselves (built from ./images/<name>)
	etc      map[string]string // files its packages install under /etc, by path below /etc
}

// run is one start of an image's /run_endpoint.sh: its environment; result what came of it.
type run struct {
	env []string
}

type result struct {
	code  int
	out   string   // stdout and stderr
	calls []string // the stubs' records, one call a line: "NAME ARGS..."
}

// lastLine is the output's last line (what lifecycle reports as an endpoint's last words).
func (r result) lastLine() string {
	lines := strings.Split(strings.TrimRight(r.out, "\n"), "\n")
	return lines[len(lines)-1]
}

// called reports whether a stub recorded a call starting with prefix.
func (r result) called(prefix string) bool {
	for _, c := range r.calls {
		if strings.HasPrefix(c, prefix) {
			return true
		}
	}
	return false
}

// runInFakeRoot runs the image's /run_endpoint.sh once per run in a root made like the image
// (fakeroot.sh), in user, mount and network namespaces of its own: no Docker, nothing touched on
// the host. Where namespaces cannot be made, the test lacks a prerequisite (CI fails).
func runInFakeRoot(t *testing.T, img fakeImage, runs []run) []result {
	t.Helper()
	unshare := unshareCmd(t)
	work := t.TempDir()
	for _, d := range []string{"specs", "real", "etc"} {
		if err := os.MkdirAll(filepath.Join(work, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files, err := rootFiles(img)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(work, "files"), strings.Join(files, "\n")+"\n")
	// Every user is uid 0: the namespace maps only that one, and `install -o www-data` must work.
	etc := map[string]string{
		"passwd":        "root:x:0:0:root:/root:/bin/bash\nwww-data:x:0:0:www-data:/var/www:/usr/sbin/nologin\n",
		"group":         "root:x:0:\nwww-data:x:0:\n",
		"nsswitch.conf": "passwd: files\ngroup: files\nhosts: files\n",
	}
	for f, text := range img.etc {
		etc[f] = text
	}
	for f, text := range etc {
		p := filepath.Join(work, "etc", f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, p, text)
	}
	for _, name := range img.checks {
		build := exec.Command("go", "build", "-o", filepath.Join(work, "real", name), "./"+name)
		build.Dir, build.Env = imagesDir, append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build ./images/%s: %v\n%s", name, err, out)
		}
	}
	for i, r := range runs {
		env := append([]string{"PATH=" + imagePATH}, r.env...)
		write(t, filepath.Join(work, "specs", fmt.Sprintf("%04d.env", i)), strings.Join(env, "\x00")+"\x00")
	}
	cmd := exec.Command(unshare[0], append(unshare[1:], "bash", filepath.Join("testdata", "fakeroot.sh"), work)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fakeroot.sh: %v\n%s", err, out)
	}
	out := make([]result, len(runs))
	for i := range runs {
		base := filepath.Join(work, "out", fmt.Sprintf("%04d", i))
		code, err := strconv.Atoi(strings.TrimSpace(read(t, base+".code")))
		if err != nil {
			t.Fatal(err)
		}
		calls := strings.Split(strings.TrimRight(read(t, base+".calls"), "\n"), "\n")
		if calls[0] == "" {
			calls = nil
		}
		out[i] = result{code: code, out: read(t, base+".out"), calls: calls}
	}
	return out
}

// unshareCmd is the command that gives fakeroot.sh its namespaces, once it is known to work here.
func unshareCmd(t *testing.T) []string {
	t.Helper()
	cmd := []string{"unshare", "--user", "--map-root-user", "--mount", "--net", "--fork"}
	if out, err := exec.Command(cmd[0], append(cmd[1:], "true")...).CombinedOutput(); err != nil {
		prereq.Missing(t, fmt.Sprintf("user, mount and network namespaces (unshare: %v: %s)", err, strings.TrimSpace(string(out))),
			"CI's Debian host allows them (make test runs as root)")
	}
	for _, tool := range []string{"bash", "chroot", "timeout"} {
		if _, err := exec.LookPath(tool); err != nil {
			prereq.Missing(t, tool, "CI's Debian host has it")
		}
	}
	return cmd
}

// rootFiles are fakeroot.sh's WORK/files lines for the image: what the Dockerfiles of the base
// and the image copy in, then stubs for /setup.sh and /wait-for-it.sh (a run must not wait for a
// sim), for iproute2's ip (the base installs it; there is no network to look at here) and for
// the image's packages' programs.
func rootFiles(img fakeImage) ([]string, error) {
	var out []string
	dirs := []string{filepath.Join(imagesDir, "endpoint")}
	if img.name != "endpoint" {
		dirs = append(dirs, filepath.Join(imagesDir, img.name))
	}
	for _, dir := range dirs {
		files, err := copiedFiles(dir)
		if err != nil {
			return nil, err
		}
		out = append(out, files...)
	}
	for _, stub := range append([]string{"/setup.sh", "/wait-for-it.sh"}, binPaths(append([]string{"ip"}, img.programs...))...) {
		out = append(out, stub+"\t-")
	}
	return out, nil
}

// binPaths puts each program in /usr/local/bin, ahead of the host's on PATH.
func binPaths(programs []string) []string {
	var out []string
	for _, p := range programs {
		out = append(out, "/usr/local/bin/"+p)
	}
	return out
}

// copiedFiles reads the COPY lines of a Dockerfile's last stage (the image) as WORK/files lines:
// each destination with its source in the build context, or "-" (a stub) for what is built before
// the image (.build/, another stage), which the test does not have; and "+x" for what its RUN
// chmod +x makes executable.
func copiedFiles(dir string) ([]string, error) {
	f, err := os.Open(filepath.Join(dir, "Dockerfile"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		words := strings.Fields(sc.Text())
		if len(words) == 0 {
			continue
		}
		switch strings.ToUpper(words[0]) {
		case "FROM":
			out = nil // a new stage: only the last one is the image
		case "RUN":
			// RUN chmod +x PATH... [&& ...]: the mode the image gives what it copied.
			if len(words) > 3 && words[1] == "chmod" && words[2] == "+x" {
				for _, w := range words[3:] {
					if w == "&&" || w == "\\" {
						break
					}
					out = append(out, w+"\t+x")
				}
			}
		case "COPY":
			var srcs []string
			built := false
			for _, w := range words[1 : len(words)-1] {
				switch {
				case strings.HasPrefix(w, "--from="):
					built = true
				case strings.HasPrefix(w, "--"):
				default:
					srcs = append(srcs, w)
				}
			}
			dest := words[len(words)-1]
			var paths []string
			for _, s := range srcs {
				if built || strings.HasPrefix(s, ".build/") {
					paths = append(paths, s)
					continue
				}
				m, err := filepath.Glob(filepath.Join(dir, s))
				if err != nil || len(m) == 0 {
					return nil, fmt.Errorf("%s/Dockerfile: COPY %s: no such file in the build context", dir, s)
				}
				paths = append(paths, m...)
			}
			sort.Strings(paths)
			for _, p := range paths {
				to := dest
				if strings.HasSuffix(dest, "/") || len(paths) > 1 {
					to = strings.TrimSuffix(dest, "/") + "/" + filepath.Base(p)
				}
				if built || strings.HasPrefix(p, ".build/") {
					out = append(out, to+"\t-")
				} else if abs, err := filepath.Abs(p); err != nil {
					return nil, err
				} else {
					out = append(out, to+"\t"+abs)
				}
			}
		}
	}
	return out, sc.Err()
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
