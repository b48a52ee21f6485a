package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wirelab/wirelab/internal/docker"
	"github.com/wirelab/wirelab/internal/fuzzseeds"
	"github.com/wirelab/wirelab/internal/quictrace"
)

// SeedTarget is the fuzz target the trace seeds are for.
const seedTarget = "nghttp3-qpack-decoder"

// runFuzzSeeds writes nghttp3-qpack-decoder seeds from the http3 cells of a QUIC run (issue #16):
// every cell's trace is read first, so bad input (a missing run, no http3 cells, a trace tshark
// cannot read) writes nothing.
func runFuzzSeeds(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "fuzz-seeds", "")
	runDir := fs.String("run", "", "the QUIC run `folder` (out/quic/<run-id>) whose http3 cells are read")
	out := fs.String("out", filepath.Join(e.root, "out"), "output `dir`; seeds go to <dir>/fuzz/seeds/"+seedTarget)
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return badInputf("unexpected argument %q", fs.Arg(0))
	case *runDir == "":
		return badInputf("--run: not set (want a QUIC run folder, e.g. out/quic/<run-id>)")
	case *out == "":
		return badInputf("--out: empty")
	}
	if _, err := fuzzseeds.Cells(*runDir); err != nil {
		return badInputf("%v", err)
	}
	r := &quictrace.Runner{Docker: e.docker}
	if err := r.Available(ctx); err != nil {
		return &docker.EnvError{Msg: fmt.Sprintf("tshark image %s not available (make images IMAGES=tshark): %v", quictrace.Image, err)}
	}
	cells, err := fuzzseeds.FromRun(ctx, r, *runDir)
	if err != nil {
		if errors.Is(err, fuzzseeds.ErrBadInput) {
			return badInputf("%v", err)
		}
		return err
	}
	dst := filepath.Join(*out, "fuzz", "seeds", seedTarget)
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	seeds, skipped := 0, 0
	for _, c := range cells {
		if c.Skipped != "" && len(c.Seeds) == 0 {
			skipped++
			fmt.Fprintf(e.stdout, "%s: skipped: %s\n", c.Name, c.Skipped)
			continue
		}
		st := c.Stats
		extra := ""
		if st.Gaps > 0 {
			extra += fmt.Sprintf(", %d stopped at a gap", st.Gaps)
		}
		if st.Partial > 0 {
			extra += fmt.Sprintf(", %d end inside a frame", st.Partial)
		}
		fmt.Fprintf(e.stdout, "%s: %d streams%s in %d connection(s); c2s: %d encoder bytes, %d field sections; s2c: %d encoder bytes, %d field sections\n",
			c.Name, st.Streams, extra, st.Connections, st.EncoderBytes[fuzzseeds.ToServer], st.Sections[fuzzseeds.ToServer],
			st.EncoderBytes[fuzzseeds.ToClient], st.Sections[fuzzseeds.ToClient])
		for _, m := range st.Malformed {
			fmt.Fprintf(e.stdout, "  malformed: %s\n", m)
		}
		var names []string
		for _, s := range c.Seeds {
			name := s.Name(c.Name)
			if err := writeFileAtomic(filepath.Join(dst, name), s.Encode()); err != nil {
				return err
			}
			limits := fmt.Sprintf("table %d, blocked %d", s.Capacity, s.MaxBlocked)
			if s.NoSettings {
				limits = "no SETTINGS from the receiver in the trace: table 0, blocked 0"
			}
			names = append(names, fmt.Sprintf("%s (%s, %d records)", name, limits, len(s.Records)))
			seeds++
		}
		fmt.Fprintf(e.stdout, "  seeds: %s\n", strings.Join(names, "; "))
	}
	fmt.Fprintf(e.stdout, "fuzz-seeds: %d seeds from %d http3 cells (%d skipped) in %s\n", seeds, len(cells), skipped, dst)
	return nil
}

func writeFileAtomic(path string, b []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
