package report

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wirelab/wirelab/internal/tshark"
)

// packetLimit is how many packets a cell page lists; the page says how many more the trace has.
const packetLimit = 500

// packetFields are the tshark fields of the packet list, in order.
var packetFields = []string{"frame.number", "frame.time_relative", "ip.src", "ipv6.src", "ip.dst", "ipv6.dst", "frame.len", "_ws.col.info"}

// packetsFile and packetsKey are a cell's cached packet list and the version of the trace it
// was made from.
const (
	packetsFile = "packets.tsv"
	packetsKey  = "packets.src"
)

// cacheKey names what a cell's cached packet list was made from: the trace's version, and
// whether the report made its pcapng too.
func cacheKey(trace string, makePcapng bool) (string, error) {
	key, err := sourceKey(trace)
	if makePcapng {
		key += " +pcapng"
	}
	return key, err
}

// cachedPackets returns the cached packet list of trace, if the cache was made from this
// version of it (with the pcapng the report makes, when it makes one).
func cachedPackets(cacheDir, trace string, makePcapng bool) (string, bool) {
	key, err := cacheKey(trace, makePcapng)
	if err != nil {
		return "", false
	}
	if k, err := os.ReadFile(filepath.Join(cacheDir, packetsKey)); err != nil || string(k) != key {
		return "", false
	}
	data, err := os.ReadFile(filepath.Join(cacheDir, packetsFile))
	return string(data), err == nil
}

// packetJob is one trace for the batch: its packet list, and for a trace the run left without a
// pcapng, the pcapng the report makes of it (with the cell's TLS secrets when it has any).
type packetJob struct {
	trace, cache string
	decodeAs     []string // tshark's -d options (the cell's suite's)
	makePcapng   bool
	keys         string // the cell's keylogs joined (in the cache folder), "" when none
}

// Files the batch leaves in a cell's cache folder besides the packet list.
const (
	madePcapng = "trace_node_right.pcapng" // made by the report when the run has none
	pcapngKind = "pcapng.kind"             // "secrets" or "plain": whether it carries TLS secrets
)

// tsharkBatch lists the first packetLimit packets of every job's trace in ONE tshark container
// (its start is paid once, not per cell), two traces at a time, and stores each list with its
// key in the job's cache folder; a job that asks for it gets its pcapng first (editcap, in the
// same container). Progress lines go to progress. out/ is mounted read-only, the cache root
// read-write.
func tsharkBatch(ctx context.Context, t *tshark.Tool, out, cacheRoot string, jobs []packetJob, progress io.Writer) error {
	if len(jobs) == 0 {
		return nil
	}
	absOut, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	absCache, err := filepath.Abs(cacheRoot)
	if err != nil {
		return err
	}
	const workers = 2
	lists := make([]bytes.Buffer, workers)
	for i, j := range jobs {
		rel, err := relUnder(absOut, j.trace)
		if err != nil {
			return fmt.Errorf("%s: not under %s", j.trace, out)
		}
		crel, err := relUnder(absCache, j.cache)
		if err != nil {
			return fmt.Errorf("%s: not under %s", j.cache, cacheRoot)
		}
		if err := os.MkdirAll(j.cache, 0o755); err != nil {
			return err
		}
		_ = os.Remove(filepath.Join(j.cache, packetsKey))
		decode, mk, keys := strings.Join(j.decodeAs, " "), "-", "-"
		if decode == "" {
			decode = "-"
		}
		if j.makePcapng {
			mk = "/c/" + crel + "/" + madePcapng
		}
		if j.keys != "" {
			keys = "/c/" + crel + "/" + filepath.Base(j.keys)
		}
		// Tabs are whitespace to read(1): an empty field would vanish, so none is empty ("-").
		fmt.Fprintf(&lists[i%workers], "/o/%s\t/c/%s\t%s\t%s\t%s\n", rel, crel, decode, mk, keys)
	}
	stamp := strconv.FormatInt(time.Now().UnixNano(), 36)
	var names []string
	for i := range lists {
		name := fmt.Sprintf("jobs-%s-%d.tsv", stamp, i)
		if err := os.WriteFile(filepath.Join(absCache, name), lists[i].Bytes(), 0o644); err != nil {
			return err
		}
		defer os.Remove(filepath.Join(absCache, name))
		names = append(names, "/c/"+name)
	}
	var fields []string
	for _, f := range packetFields {
		fields = append(fields, "-e "+f)
	}
	// One worker per list: each line is "trace, cache folder, decode-as options, the pcapng to
	// make (or -), the keylog for it (or -)"; a trace tshark cannot read still gets its list
	// (empty) and its error beside it.
	script := `set -u
tab=$(printf '\t')
work() {
  while IFS="$tab" read -r in dir decode mk keys; do
    [ "$decode" = - ] && decode=
    if [ "$mk" != - ]; then
      if [ "$keys" != - ] && editcap --inject-secrets "tls,$keys" "$in" "$mk.tmp" 2>"$dir/editcap.err"; then
        echo secrets >"$dir/` + pcapngKind + `"
      else
        editcap -F pcapng "$in" "$mk.tmp" 2>>"$dir/editcap.err"
        echo plain >"$dir/` + pcapngKind + `"
      fi
      mv "$mk.tmp" "$mk" && in=$mk
    fi
    tshark -r "$in" -n $decode -c ` + strconv.Itoa(packetLimit) + ` -T fields -E separator=/t -E occurrence=f ` +
		strings.Join(fields, " ") + ` >"$dir/` + packetsFile + `.tmp" 2>"$dir/tshark.err"
    mv "$dir/` + packetsFile + `.tmp" "$dir/` + packetsFile + `"
    echo done
  done <"$1"
}
for l in ` + strings.Join(names, " ") + `; do work "$l" & done
wait`
	pw := &progressWriter{w: progress, total: len(jobs), start: time.Now()}
	err = t.Script(ctx, []string{absOut + ":/o:ro", absCache + ":/c"}, script, pw)
	pw.finish()
	for _, j := range jobs { // the key marks a list (and a pcapng) as complete for this version of the trace
		if !fileExists(filepath.Join(j.cache, packetsFile)) || (j.makePcapng && !fileExists(filepath.Join(j.cache, madePcapng))) {
			continue
		}
		if key, kerr := cacheKey(j.trace, j.makePcapng); kerr == nil {
			_ = os.WriteFile(filepath.Join(j.cache, packetsKey), []byte(key), 0o644)
		}
	}
	return err
}

// progressWriter counts the batch's "done" lines and prints a progress line now and then.
type progressWriter struct {
	mu          sync.Mutex
	w           io.Writer
	total, done int
	start, last time.Time
}

func (p *progressWriter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += bytes.Count(b, []byte("done\n"))
	if p.w != nil && time.Since(p.last) >= 5*time.Second {
		p.last = time.Now()
		fmt.Fprintf(p.w, "report: tshark %d/%d cells (%s)\n", p.done, p.total, time.Since(p.start).Round(time.Second))
	}
	return len(b), nil
}

func (p *progressWriter) finish() {
	if p.w != nil {
		fmt.Fprintf(p.w, "report: tshark %d/%d cells in %s\n", p.done, p.total, time.Since(p.start).Round(100*time.Millisecond))
	}
}

// formatPackets turns the cached field lines into the page's packet list: number, time,
// source -> destination, length, tshark's info column (QUIC packet types and frames, HTTP/3 and
// HTTP/2 frames), then how many packets the trace has beyond the list.
func formatPackets(tsv string, total int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%6s %10s  %-40s %6s  %s\n", "No.", "Time", "Source -> Destination", "Length", "Info")
	n := 0
	for _, line := range strings.Split(strings.TrimRight(tsv, "\n"), "\n") {
		f := strings.Split(line, "\t")
		if len(f) < len(packetFields) {
			continue
		}
		n++
		src, dst := firstOf(f[2], f[3]), firstOf(f[4], f[5])
		info := f[7]
		if len(info) > 400 {
			info = info[:400] + " …"
		}
		fmt.Fprintf(&b, "%6s %10s  %-40s %6s  %s\n", f[0], trimTime(f[1]), src+" -> "+dst, f[6], info)
	}
	if n == 0 {
		return "tshark listed no packets.\n"
	}
	if total > n {
		fmt.Fprintf(&b, "… and %d more packets (%d in the trace; open the pcapng in Wireshark for all of them)\n", total-n, total)
	}
	return b.String()
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// trimTime shortens tshark's relative time to milliseconds.
func trimTime(s string) string {
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		return strconv.FormatFloat(v, 'f', 3, 64)
	}
	return s
}
