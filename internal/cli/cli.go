// Package cli is the wirelab command line: one subcommand per suite or chore, shared flags, and
// one exit-code policy (0 ok, 1 failed checks, 2 bad input, 3 environment, 130 interrupted).
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/wirelab/wirelab/internal/docker"
	"github.com/wirelab/wirelab/internal/manifest"
	"github.com/wirelab/wirelab/internal/suite"
	"github.com/wirelab/wirelab/internal/suites"
)

// Exit codes.
const (
	ExitOK          = 0
	ExitFailed      = 1
	ExitBadInput    = 2
	ExitEnvironment = 3
	ExitInterrupted = 130
)

type command struct {
	name, summary string
	run           func(ctx context.Context, e *env, args []string) error
}

// env is what a subcommand gets: where to write and where the repository is.
type env struct {
	stdout, stderr io.Writer
	root           string
	docker         *docker.CLI
	suites         suite.Registry
	merging        bool // wirelab merge runs a suite over merged shard results (no cell runs)
}

// commands are the chores, then one command per registered suite, then what works on runs.
func commands(reg suite.Registry) []command {
	cmds := []command{
		{"list", "list the image registry (manifests under images/) as a table or --json", runList},
		{"versions", "per image: the pinned version next to the newest its registry (Debian, Go proxy) serves", runVersions},
		{"images", "build images in dependency order with layer caching, independent ones at once: images [NAME...] | --for SUITE", runImages},
		{"smoke", "prove the lab works here: two labelled containers talk, then nothing is left", runSmoke},
		{"sim-check", "measure the sim's fidelity through the real topology (make sim-check)", runSimCheck},
		{"clean", "remove containers, networks and volumes labelled by wirelab runs (--run-id ID: one run)", runClean},
	}
	for _, s := range reg() {
		s := s
		info := s.Info()
		cmds = append(cmds, command{info.Name, info.Summary + " (make " + info.Make + ")", func(ctx context.Context, e *env, args []string) error {
			return runSuite(ctx, e, s, args)
		}})
	}
	return append(cmds, []command{
		{"suites", "list the registered suites: name, make target, roles (--make: the make targets, for the Makefile)", runSuites},
		{"merge", "combine --shard i/N run folders into one run: result.json, junit.xml and the table as an unsharded run writes them", runMerge},
		{"baseline", "write a suite's known findings (conformance/<suite>/expected.yml) from a run's failed cells (make baseline)", runBaseline},
		{"coverage", "coverage gates with gcovr: replay fuzz corpora, Go unit-test coverage, enforce coverage/gates.yml (make coverage)", runCoverage},
		{"fuzz-seeds", "nghttp3-qpack-decoder and nghttp3-h3-conn seeds from the HTTP/3 streams of a QUIC run's http3 cells: --run DIR (make fuzz-seeds)", runFuzzSeeds},
		{"report", "HTML dashboard out/report/index.html from the runs under out/ (make report)", runReport},
	}...)
}

// Main runs wirelab with args (without the program name) and returns the exit code.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return MainWith(ctx, suites.All, args, stdout, stderr)
}

// MainWith is Main over a registry of suites of the caller's (a test registers its own).
func MainWith(ctx context.Context, reg suite.Registry, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout, reg)
		if len(args) == 0 {
			return ExitBadInput
		}
		return ExitOK
	}
	for _, c := range commands(reg) {
		if c.name != args[0] {
			continue
		}
		root, err := findRoot()
		if err != nil {
			fmt.Fprintf(stderr, "wirelab %s: %v\n", c.name, err)
			return ExitEnvironment
		}
		e := &env{stdout: stdout, stderr: stderr, root: root, docker: docker.New(), suites: reg}
		err = c.run(ctx, e, args[1:])
		code := exitCode(err)
		if err != nil && !errors.Is(err, errQuiet) {
			fmt.Fprintf(stderr, "wirelab %s: %s\n", c.name, oneLine(err))
		}
		return code
	}
	fmt.Fprintf(stderr, "wirelab: unknown command %q (see wirelab help)\n", args[0])
	return ExitBadInput
}

func usage(w io.Writer, reg suite.Registry) {
	fmt.Fprintln(w, "usage: wirelab <command> [flags]   (wirelab <command> -h for its flags)")
	fmt.Fprintln(w)
	for _, c := range commands(reg) {
		fmt.Fprintf(w, "  %-12s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nexit codes: 0 ok, 1 checks failed, 2 bad input, 3 environment (docker/compose), 130 interrupted")
}

// Errors that choose the exit code.
var (
	errQuiet       = errors.New("already reported")
	errInterrupted = errors.New("interrupted")
)

type badInput struct{ msg string }

func (b badInput) Error() string { return b.msg }

type failed struct{ msg string }

func (f failed) Error() string { return f.msg }

func badInputf(format string, a ...any) error { return badInput{fmt.Sprintf(format, a...)} }

func exitCode(err error) int {
	var mErr *manifest.Error
	var bad badInput
	var f failed
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, errInterrupted), errors.Is(err, context.Canceled):
		return ExitInterrupted
	case errors.As(err, &bad), errors.As(err, &mErr):
		return ExitBadInput
	case errors.Is(err, docker.ErrEnvironment), errors.Is(err, syscall.ENOSPC):
		return ExitEnvironment
	case errors.As(err, &f), errors.Is(err, errQuiet):
		return ExitFailed
	}
	return ExitFailed
}

func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", "; ") }

// findRoot locates the wirelab checkout: $WIRELAB_ROOT, else the nearest folder upwards holding
// both images/ and compose/.
func findRoot() (string, error) {
	if r := os.Getenv("WIRELAB_ROOT"); r != "" {
		return r, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := dir; ; {
		if isDir(d+"/images") && isDir(d+"/compose") {
			return d, nil
		}
		parent := d[:max(strings.LastIndex(d, "/"), 0)]
		if parent == d || parent == "" {
			return "", fmt.Errorf("not inside a wirelab checkout (no images/ and compose/ above %s); set WIRELAB_ROOT", dir)
		}
		d = parent
	}
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// manifests loads images/*/manifest.yml and holds them to the registered suites' schema (the
// roles and ALPNs each suite accepts).
func (e *env) manifests() ([]*manifest.Manifest, error) {
	ms, err := manifest.LoadDir(filepath.Join(e.root, "images"))
	if err != nil {
		return nil, err
	}
	return ms, manifest.Check(ms, e.suites.Schema())
}
