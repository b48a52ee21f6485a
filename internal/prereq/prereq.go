// Package prereq is how a test says it cannot get something it needs (an image, root, a tool).
// Where a skip would hide a regression — in CI (CI=true) and in the stages of `make test` that
// set WIRELAB_INTEGRATION=1 — the test fails, naming what is missing and what should have
// provided it; in a developer's plain `go test` it skips with the same line.
package prereq

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// Required reports whether a missing prerequisite fails the test instead of skipping it.
func Required() bool {
	ci, _ := strconv.ParseBool(os.Getenv("CI"))
	return ci || os.Getenv("WIRELAB_INTEGRATION") == "1"
}

// Missing ends t for lack of what; provider says where CI gets it from.
func Missing(t testing.TB, what, provider string) {
	t.Helper()
	msg := "missing prerequisite: " + what + " (" + provider + ")"
	if Required() {
		t.Fatalf("%s; under CI=true or WIRELAB_INTEGRATION=1 this fails instead of skipping", msg)
	}
	t.Skip(msg)
}

// IntegrationPrefix starts the name of every test that Integration lets run: ci/test.sh leaves
// them out of its unit stage (go test -skip) and runs them in its integration stage.
const IntegrationPrefix = "TestIntegration"

// Integration skips t unless WIRELAB_INTEGRATION=1: the opt-in of tests that drive the Docker
// engine and built images, which a plain `go test ./...` leaves alone by design. needs names what
// such a test drives. A gated test whose name lacks IntegrationPrefix fails: no stage would run it.
func Integration(t testing.TB, needs string) {
	t.Helper()
	if !strings.HasPrefix(t.Name(), IntegrationPrefix) {
		t.Fatalf("%s is gated on WIRELAB_INTEGRATION but its name does not start with %s, so ci/test.sh's integration stage would not run it", t.Name(), IntegrationPrefix)
	}
	if os.Getenv("WIRELAB_INTEGRATION") != "1" {
		t.Skip("integration test: set WIRELAB_INTEGRATION=1 (needs the Docker engine and " + needs + "; make test's integration stage does)")
	}
}
