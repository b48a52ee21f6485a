// Package cmdflags parses the flags of wirelab's own image binaries (converter, probes) the one
// way they all report: the usage text for -h, and an error of one line naming the flag, which
// the caller prints (exit 2).
package cmdflags

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Parse parses args into fs, whose flags the caller defined. usage is synopsis followed by the
// flags' defaults. The error is the flag package's (it names the flag; flag.ErrHelp for -h), or
// one for a positional argument: these binaries take flags only.
func Parse(fs *flag.FlagSet, args []string, synopsis string) (usage string, err error) {
	var help strings.Builder
	fs.SetOutput(&help)
	fs.PrintDefaults()
	usage = synopsis + "\n" + help.String()
	fs.SetOutput(io.Discard) // errors are one line, printed by the caller
	if err := fs.Parse(args); err != nil {
		return usage, err
	}
	if fs.NArg() > 0 {
		return usage, fmt.Errorf("unexpected argument %q (flags only)", fs.Arg(0))
	}
	return usage, nil
}

// Settle ends what Parse returned the one way every binary does: -h prints the usage to stdout
// (exit 0), a bad flag prints "name: error" to stderr (exit 2). exit reports whether the caller
// stops with code.
func Settle(name, usage string, err error, stdout, stderr io.Writer) (code int, exit bool) {
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, usage)
		return 0, true
	case err != nil:
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 2, true
	}
	return 0, false
}
