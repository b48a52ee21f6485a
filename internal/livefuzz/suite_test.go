package livefuzz

import (
	"errors"
	"flag"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/manifest"
	"github.com/wirelab/wirelab/internal/suite"
)

func load(t *testing.T, args ...string) (suite.Matrix, error) {
	t.Helper()
	ms, err := manifest.LoadDir("../../images")
	if err != nil {
		t.Fatal(err)
	}
	s := &Suite{}
	fs := flag.NewFlagSet("fuzz-live", flag.ContinueOnError)
	s.Flags(fs, "../..")
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return s.Load(suite.Input{Root: "../..", Manifests: ms})
}

// The default selection is every fuzz-live server image (the six QUIC servers as deployed and
// ngtcp2's ASan variant) and the campaigns each declares.
func TestLoadDefault(t *testing.T) {
	m, err := load(t)
	if err != nil {
		t.Fatal(err)
	}
	run, skip := 0, 0
	for _, c := range m.Cells() {
		if c.Skip {
			skip++
		} else {
			run++
		}
	}
	if run != 13 || skip != 1 || !strings.Contains(m.Describe(), "7 targets x 2 campaigns") {
		t.Errorf("%s: %d cells to run, %d skipped; want seven targets, go-x-net without h3", m.Describe(), run, skip)
	}
}

// Bad flags are one line naming the flag, before anything starts.
func TestLoadRefusesBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--duration", "2s"}, "--duration"},
		{[]string{"--target", "nope"}, "nope"},
		{[]string{"--campaigns", "h2"}, "--campaigns"},
		{[]string{"--replay", "/nonexistent"}, "--replay"},
		{[]string{"--seeds", "/nonexistent"}, "--seeds"},
	} {
		_, err := load(t, tc.args...)
		var bad suite.BadInput
		if !errors.As(err, &bad) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want a bad-input error naming %s", tc.args, err, tc.want)
		}
	}
}
