package cmdflags

import (
	"errors"
	"flag"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	newSet := func() (*flag.FlagSet, *int) {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		return fs, fs.Int("n", 1, "a `count`")
	}
	fs, n := newSet()
	usage, err := Parse(fs, []string{"-n", "3"}, "usage: x [flags]")
	if err != nil || *n != 3 || !strings.HasPrefix(usage, "usage: x [flags]\n") || !strings.Contains(usage, "-n count") {
		t.Fatalf("%q %v %d", usage, err, *n)
	}
	for args, want := range map[string]string{"-n two": "-n", "-m 1": "-m", "-n 2 extra": `unexpected argument "extra"`} {
		fs, _ := newSet()
		if _, err := Parse(fs, strings.Fields(args), "usage"); err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line naming %q", args, err, want)
		}
	}
	fs, _ = newSet()
	if _, err := Parse(fs, []string{"-h"}, "usage"); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-h: %v", err)
	}
}

func TestSettle(t *testing.T) {
	for _, tc := range []struct {
		err            error
		code           int
		exit           bool
		stdout, stderr string
	}{
		{nil, 0, false, "", ""},
		{flag.ErrHelp, 0, true, "usage: x\n", ""},
		{errors.New("-n: bad"), 2, true, "", "x: -n: bad\n"},
	} {
		var stdout, stderr strings.Builder
		code, exit := Settle("x", "usage: x\n", tc.err, &stdout, &stderr)
		if code != tc.code || exit != tc.exit || stdout.String() != tc.stdout || stderr.String() != tc.stderr {
			t.Errorf("%v: %d %v %q %q", tc.err, code, exit, stdout.String(), stderr.String())
		}
	}
}
