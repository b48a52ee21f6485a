package prereq

import (
	"fmt"
	"strings"
	"testing"
)

// recorder stands in for a test: it records how Missing or Integration ended it.
type recorder struct {
	testing.TB
	name        string
	fatal, skip string
	passed      bool
}

type ended struct{}

func (r *recorder) Helper()      {}
func (r *recorder) Name() string { return r.name }
func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	panic(ended{})
}
func (r *recorder) Skip(args ...any) {
	r.skip = fmt.Sprint(args...)
	panic(ended{})
}

func run(name string, f func(testing.TB)) *recorder {
	r := &recorder{name: name}
	func() {
		defer func() {
			if v := recover(); v != nil {
				if _, ok := v.(ended); !ok {
					panic(v)
				}
			}
		}()
		f(r)
		r.passed = true
	}()
	return r
}

func missingTshark(t testing.TB) {
	Missing(t, "image wirelab/tshark:latest", "the images stage builds it")
}

func TestMissingFailsInCIAndUnderIntegration(t *testing.T) {
	for _, env := range [][2]string{{"true", ""}, {"1", ""}, {"", "1"}, {"false", "1"}} {
		t.Setenv("CI", env[0])
		t.Setenv("WIRELAB_INTEGRATION", env[1])
		r := run("TestX", missingTshark)
		if r.fatal == "" || r.skip != "" || r.passed {
			t.Errorf("CI=%q WIRELAB_INTEGRATION=%q: fatal %q skip %q passed %v, want a failure", env[0], env[1], r.fatal, r.skip, r.passed)
		}
		if !strings.Contains(r.fatal, "missing prerequisite: image wirelab/tshark:latest (the images stage builds it)") {
			t.Errorf("the failure does not name what is missing and who provides it: %q", r.fatal)
		}
	}
}

func TestMissingSkipsOutsideCI(t *testing.T) {
	for _, ci := range []string{"", "false", "0"} {
		t.Setenv("CI", ci)
		t.Setenv("WIRELAB_INTEGRATION", "")
		r := run("TestX", missingTshark)
		if r.skip != "missing prerequisite: image wirelab/tshark:latest (the images stage builds it)" || r.fatal != "" {
			t.Errorf("CI=%q: skip %q fatal %q, want the same line as a skip", ci, r.skip, r.fatal)
		}
	}
}

func TestOptInGate(t *testing.T) {
	gate := func(t testing.TB) { Integration(t, "the quic-go image") }
	t.Setenv("WIRELAB_INTEGRATION", "")
	if r := run("TestIntegrationSmoke", gate); r.skip == "" || !strings.Contains(r.skip, "the quic-go image") {
		t.Errorf("without WIRELAB_INTEGRATION: skip %q fatal %q, want a skip naming the image", r.skip, r.fatal)
	}
	t.Setenv("WIRELAB_INTEGRATION", "1")
	if r := run("TestIntegrationSmoke/sub", gate); !r.passed {
		t.Errorf("with WIRELAB_INTEGRATION=1 the test did not go on: skip %q fatal %q", r.skip, r.fatal)
	}
	// A gated test that the stages' name patterns would miss fails, with or without the opt-in.
	for _, v := range []string{"", "1"} {
		t.Setenv("WIRELAB_INTEGRATION", v)
		if r := run("TestSmoke", gate); !strings.Contains(r.fatal, "does not start with TestIntegration") {
			t.Errorf("WIRELAB_INTEGRATION=%q: misnamed gated test: fatal %q skip %q", v, r.fatal, r.skip)
		}
	}
}
