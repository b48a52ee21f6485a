package fuzzseeds

import (
	"bufio"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/quictrace"
)

// Fields are the tshark fields of one datagram, in the column order ParseFields reads: several
// STREAM frames in one datagram give '|'-joined lists. quic.stream.offset and .length are present
// only for frames whose type has the OFF / LEN bit (quic.stream.off / .len), so they are matched
// to frames through those flags. quic.stream.fin (one per frame) marks the frame that ends its stream.
var Fields = []string{"frame.number", "ip.src", "ipv6.src", "udp.srcport", "udp.dstport",
	"quic.connection.number", "quic.stream.stream_id", "quic.stream.off", "quic.stream.offset",
	"quic.stream.len", "quic.stream.length", "quic.stream_data", "quic.stream.fin"}

// TsharkArgs is what follows tshark's input options: only datagrams with a STREAM frame, as
// tab-separated Fields.
func TsharkArgs() []string {
	args := []string{"-Y", "quic.stream.stream_id", "-T", "fields", "-E", "aggregator=|", "-E", "occurrence=a"}
	for _, f := range Fields {
		args = append(args, "-e", f)
	}
	return args
}

// ParseFields reads tshark's output for TsharkArgs into STREAM frames. Datagrams on neither
// ServerPort nor PreferredAddressPort have no direction and are skipped (counted in skipped).
func ParseFields(r io.Reader) (frames []StreamFrame, skipped int, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for line := 1; sc.Scan(); line++ {
		if sc.Text() == "" {
			continue
		}
		fs, ok, err := parseLine(sc.Text())
		if err != nil {
			return nil, 0, fmt.Errorf("tshark output line %d: %w", line, err)
		}
		if !ok {
			skipped++
			continue
		}
		frames = append(frames, fs...)
	}
	if err := sc.Err(); err != nil {
		return nil, 0, fmt.Errorf("tshark output: %w", err)
	}
	return frames, skipped, nil
}

func split(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "|")
}

func first(s string) string {
	v, _, _ := strings.Cut(s, "|")
	return v
}

func flag(s string) (bool, error) {
	switch s {
	case "True", "1":
		return true, nil
	case "False", "0":
		return false, nil
	}
	return false, fmt.Errorf("flag %q: want True or False", s)
}

func parseLine(line string) ([]StreamFrame, bool, error) {
	c := strings.Split(line, "\t")
	if len(c) != len(Fields) {
		return nil, false, fmt.Errorf("%d columns, want %d", len(c), len(Fields))
	}
	num, err := strconv.Atoi(c[0])
	if err != nil {
		return nil, false, fmt.Errorf("frame.number %q: not a number", c[0])
	}
	sp, _ := strconv.Atoi(first(c[3]))
	dp, _ := strconv.Atoi(first(c[4]))
	var dir Dir
	switch {
	case dp == quictrace.ServerPort || dp == quictrace.PreferredAddressPort:
		dir = ToServer
	case sp == quictrace.ServerPort || sp == quictrace.PreferredAddressPort:
		dir = ToClient
	default:
		return nil, false, nil
	}
	conn, err := strconv.Atoi(first(c[5]))
	if err != nil {
		conn = -1
	}
	ids, offFlags, offs, lenFlags, lens, data := split(c[6]), split(c[7]), split(c[8]), split(c[9]), split(c[10]), split(c[11])
	finFlags := split(c[12])
	n := len(ids)
	if len(offFlags) != n || len(lenFlags) != n || len(finFlags) != n {
		return nil, false, fmt.Errorf("frame %d: %d stream ids but %d OFF, %d LEN and %d FIN flags", num, n, len(offFlags), len(lenFlags), len(finFlags))
	}
	out := make([]StreamFrame, n)
	known := make([]int64, n) // a frame's LEN field, -1 when it has none
	oi, li := 0, 0
	for i := range out {
		f := &out[i]
		f.Frame, f.Conn, f.Dir = num, conn, dir
		if f.StreamID, err = strconv.ParseUint(ids[i], 10, 64); err != nil {
			return nil, false, fmt.Errorf("frame %d: stream id %q: not a number", num, ids[i])
		}
		off, err := flag(offFlags[i])
		if err != nil {
			return nil, false, fmt.Errorf("frame %d: quic.stream.off: %w", num, err)
		}
		if off {
			if oi >= len(offs) {
				return nil, false, fmt.Errorf("frame %d: more OFF flags than offsets", num)
			}
			if f.Offset, err = strconv.ParseUint(offs[oi], 10, 64); err != nil {
				return nil, false, fmt.Errorf("frame %d: offset %q: not a number", num, offs[oi])
			}
			oi++
		}
		hasLen, err := flag(lenFlags[i])
		if err != nil {
			return nil, false, fmt.Errorf("frame %d: quic.stream.len: %w", num, err)
		}
		if f.Fin, err = flag(finFlags[i]); err != nil {
			return nil, false, fmt.Errorf("frame %d: quic.stream.fin: %w", num, err)
		}
		known[i] = -1
		if hasLen {
			if li >= len(lens) {
				return nil, false, fmt.Errorf("frame %d: more LEN flags than lengths", num)
			}
			if known[i], err = strconv.ParseInt(lens[li], 10, 64); err != nil {
				return nil, false, fmt.Errorf("frame %d: length %q: not a number", num, lens[li])
			}
			li++
		}
	}
	if oi != len(offs) || li != len(lens) {
		return nil, false, fmt.Errorf("frame %d: %d offsets and %d lengths for %d OFF and %d LEN flags", num, len(offs), len(lens), oi, li)
	}
	// Data: one entry per frame; should tshark leave out empty data, it can only be a frame whose
	// LEN field says 0.
	di := 0
	for i := range out {
		if len(data) < n && known[i] == 0 {
			continue
		}
		if di >= len(data) {
			return nil, false, fmt.Errorf("frame %d: %d STREAM frames but %d data fields", num, n, len(data))
		}
		var b []byte
		if data[di] != "<MISSING>" { // tshark's text for an empty field (a FIN-only frame, LEN 0)
			b, err = hex.DecodeString(data[di])
		}
		if err != nil {
			return nil, false, fmt.Errorf("frame %d: stream data: %v", num, err)
		}
		if known[i] >= 0 && int64(len(b)) != known[i] {
			return nil, false, fmt.Errorf("frame %d: stream %d: %d data bytes, LEN says %d", num, out[i].StreamID, len(b), known[i])
		}
		out[i].Data = b
		di++
	}
	if di != len(data) {
		return nil, false, fmt.Errorf("frame %d: %d STREAM frames but %d data fields", num, n, len(data))
	}
	return out, true, nil
}

// Dissector runs one tshark pass over a trace (tshark.Tool.Exec in the wirelab/tshark image).
type Dissector interface {
	Exec(ctx context.Context, pcap, keylog string, stdout io.Writer, extra ...string) error
}

// Extract runs ONE tshark pass over pcap (keylog "" when its secrets are embedded) and returns
// its STREAM frames.
func Extract(ctx context.Context, r Dissector, pcap, keylog string) ([]StreamFrame, int, error) {
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := r.Exec(ctx, pcap, keylog, pw, append(quictrace.DecodeAs(), TsharkArgs()...)...)
		pw.CloseWithError(err)
		done <- err
	}()
	frames, skipped, perr := ParseFields(pr)
	if perr != nil {
		io.Copy(io.Discard, pr) // let tshark finish
	}
	if err := <-done; err != nil {
		return nil, 0, err
	}
	if perr != nil {
		return nil, 0, fmt.Errorf("%s: %w", pcap, perr)
	}
	return frames, skipped, nil
}

// Cell is one http3 cell of a run: <run>/<server>_<client>/http3.
type Cell struct {
	Name string // <server>_<client>
	Dir  string
}

// Trace files of a cell: the decrypted pcapng (secrets embedded), else the raw capture + keys.log.
const (
	DecryptedTrace = "sim/trace_node_right.pcapng"
	RawTrace       = "sim/trace_node_right.pcap"
	KeyLog         = "keys.log"
)

// ErrBadInput marks an error that names a bad input file or folder.
var ErrBadInput = errors.New("bad input")

type badInput struct{ msg string }

func (b badInput) Error() string        { return b.msg }
func (b badInput) Is(target error) bool { return target == ErrBadInput }

func badf(format string, a ...any) error { return badInput{fmt.Sprintf(format, a...)} }

// Cells lists the http3 cells of run, sorted by name.
func Cells(run string) ([]Cell, error) {
	st, err := os.Stat(run)
	if err != nil {
		return nil, badf("%s: no such run folder", run)
	}
	if !st.IsDir() {
		return nil, badf("%s: not a folder", run)
	}
	dirs, _ := filepath.Glob(filepath.Join(run, "*", "http3"))
	var cells []Cell
	for _, d := range dirs {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			cells = append(cells, Cell{Name: filepath.Base(filepath.Dir(d)), Dir: d})
		}
	}
	if len(cells) == 0 {
		return nil, badf("%s: no http3 cells (want <run>/<server>_<client>/http3/)", run)
	}
	sort.Slice(cells, func(i, j int) bool { return cells[i].Name < cells[j].Name })
	return cells, nil
}

// CellResult is what one cell gave.
type CellResult struct {
	Cell
	Trace   string // the file tshark read
	Skipped string // why the cell gave no nghttp3-qpack-decoder seed ("" if it gave some)
	Stats   Stats
	Seeds   []*Seed

	H3Conn    []*H3ConnSeed // nghttp3-h3-conn seeds (BuildH3Conn)
	H3ConnErr error         // why the trace cannot be fed to nghttp3-h3-conn (an *H3ConnError naming the cell)
}

// finished lists the http3 cells results.jsonl has a result for (nil: no journal, every cell counts).
func finished(run string) map[string]bool {
	results, err := matrix.ReadResults(filepath.Join(run, "results.jsonl"))
	if err != nil {
		return nil
	}
	done := map[string]bool{}
	for _, r := range results {
		if r.Case == "http3" {
			done[r.Server+"_"+r.Client] = true
		}
	}
	return done
}

// FromRun extracts the seeds of every http3 cell of run (nghttp3-qpack-decoder seeds by Build,
// nghttp3-h3-conn seeds by BuildH3Conn, from the same tshark pass). A cell without a (decrypted) trace,
// without field sections, or still running (no http3 result in the run's results.jsonl) is
// skipped with the reason; a trace tshark cannot read is an error naming it (ErrBadInput).
func FromRun(ctx context.Context, r Dissector, run string) ([]CellResult, error) {
	cells, err := Cells(run)
	if err != nil {
		return nil, err
	}
	done := finished(run)
	var out []CellResult
	for _, c := range cells {
		res := CellResult{Cell: c}
		out = append(out, res)
		cr := &out[len(out)-1]
		if done != nil && !done[c.Name] {
			cr.Skipped = "not finished (no http3 result in results.jsonl yet)"
			continue
		}
		pcap, keylog := filepath.Join(c.Dir, DecryptedTrace), ""
		if _, err := os.Stat(pcap); err != nil {
			pcap, keylog = filepath.Join(c.Dir, RawTrace), filepath.Join(c.Dir, KeyLog)
			_, e1 := os.Stat(pcap)
			_, e2 := os.Stat(keylog)
			if e1 != nil || e2 != nil {
				cr.Skipped = "no decrypted trace (no " + DecryptedTrace + ", nor " + RawTrace + " with " + KeyLog + ")"
				continue
			}
		}
		cr.Trace = pcap
		frames, _, err := Extract(ctx, r, pcap, keylog)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			msg := strings.TrimPrefix(strings.TrimPrefix(err.Error(), "tshark on "+pcap+": "), pcap+": ")
			return nil, badf("%s: %s", pcap, msg)
		}
		cr.Seeds, cr.Stats = Build(frames)
		cr.H3Conn, cr.H3ConnErr = BuildH3Conn(c.Name, frames)
		switch {
		case len(frames) == 0:
			cr.Skipped = "no decrypted STREAM frames in " + filepath.Base(pcap)
		case len(cr.Seeds) == 0:
			cr.Skipped = "no HEADERS field sections"
		}
	}
	return out, nil
}
