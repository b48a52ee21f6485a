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
	"github.com/wirelab/wirelab/internal/tshark"
)

// seedTarget is the QPACK decoder fuzz target the trace seeds are for; fuzzseeds.H3ConnTarget the
// connection target.
const seedTarget = "nghttp3-qpack-decoder"

// runFuzzSeeds writes nghttp3-qpack-decoder and nghttp3-h3-conn seeds from the http3 cells of a QUIC
// run (issue #16): every cell's trace is read first, so bad input (a missing run, no http3 cells, a
// trace tshark cannot read) writes nothing. A trace the h3-conn harness cannot be fed faithfully (a
// QUIC rule broken, too many streams) gives no h3-conn seed: one line names the cell and why.
func runFuzzSeeds(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "fuzz-seeds", "")
	runDir := fs.String("run", "", "the QUIC run `folder` (out/quic/<run-id>) whose http3 cells are read")
	out := fs.String("out", filepath.Join(e.root, "out"), "output `dir`; seeds go to <dir>/fuzz/seeds/"+seedTarget+" and <dir>/fuzz/seeds/"+fuzzseeds.H3ConnTarget)
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
	r := &tshark.Tool{Docker: e.docker}
	if err := r.Available(ctx); err != nil {
		return &docker.EnvError{Msg: fmt.Sprintf("tshark image %s not available (make images IMAGES=tshark): %v", tshark.Image, err)}
	}
	cells, err := fuzzseeds.FromRun(ctx, r, *runDir)
	if err != nil {
		if errors.Is(err, fuzzseeds.ErrBadInput) {
			return badInputf("%v", err)
		}
		return err
	}
	dst := filepath.Join(*out, "fuzz", "seeds", seedTarget)
	dstConn := filepath.Join(*out, "fuzz", "seeds", fuzzseeds.H3ConnTarget)
	for _, d := range []string{dst, dstConn} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	seeds, skipped, connSeeds, rejected := 0, 0, 0, 0
	for _, c := range cells {
		if c.Skipped != "" && len(c.Seeds) == 0 && len(c.H3Conn) == 0 && c.H3ConnErr == nil {
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
		if len(names) > 0 {
			fmt.Fprintf(e.stdout, "  seeds: %s\n", strings.Join(names, "; "))
		} else {
			fmt.Fprintf(e.stdout, "  seeds: none (%s)\n", c.Skipped)
		}
		if c.H3ConnErr != nil {
			rejected++
			fmt.Fprintf(e.stdout, "  %s: rejected: %v\n", fuzzseeds.H3ConnTarget, c.H3ConnErr)
			continue
		}
		names = names[:0]
		for _, s := range c.H3Conn {
			name := s.Name(c.Name)
			b := s.Encode()
			if err := writeFileAtomic(filepath.Join(dstConn, name), b); err != nil {
				return err
			}
			names = append(names, name+" ("+h3ConnSummary(s, len(b))+")")
			connSeeds++
		}
		if len(names) > 0 {
			fmt.Fprintf(e.stdout, "  %s: %s\n", fuzzseeds.H3ConnTarget, strings.Join(names, "; "))
		}
	}
	fmt.Fprintf(e.stdout, "fuzz-seeds: %d seeds from %d http3 cells (%d skipped) in %s\n", seeds, len(cells), skipped, dst)
	fmt.Fprintf(e.stdout, "fuzz-seeds: %d %s seeds (%d cells rejected) in %s\n", connSeeds, fuzzseeds.H3ConnTarget, rejected, dstConn)
	return nil
}

// h3ConnSummary says what an nghttp3-h3-conn seed feeds: "table 4096, blocked 16, 5 streams, 1234
// bytes, 31 ops, 1300 bytes[, ...]".
func h3ConnSummary(s *fuzzseeds.H3ConnSeed, size int) string {
	limits := fmt.Sprintf("table %d, blocked %d", s.Setup.MaxTableCapacity, s.Setup.BlockedStreams)
	if s.NoSettings {
		limits = "no own SETTINGS in the trace: table 0, blocked 0"
	}
	out := fmt.Sprintf("%s, %d peer streams, %d bytes fed, %d ops, %d bytes", limits, s.Streams, s.Bytes, len(s.Ops), size)
	if s.Cut > 0 {
		out += fmt.Sprintf(", %d request streams cut at %d bytes", s.Cut, s.Cap)
	}
	if s.Truncated > 0 {
		out += fmt.Sprintf(", last %d ops left out", s.Truncated)
	}
	if s.Dropped > 0 {
		out += fmt.Sprintf(", %d QPACK decoder instructions left out", s.Dropped)
	}
	if s.Renumbered {
		out += ", stream ids renumbered"
	}
	return out
}

func writeFileAtomic(path string, b []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
