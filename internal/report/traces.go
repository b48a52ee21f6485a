package report

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/wirelab/wirelab/internal/capture"
	"github.com/wirelab/wirelab/internal/tshark"
)

// traceInfos works out every cell's trace summaries: the time-sequence (Go, over the raw pcap),
// then the packet lists of all cells that need a fresh one in one tshark container; both cached.
func traceInfos(ctx context.Context, o Options, dir string, cells []*Cell) map[*Cell]traceInfo {
	infos := make(map[*Cell]traceInfo, len(cells))
	var mu sync.Mutex
	var wanted []*Cell
	for _, c := range cells {
		ti := traceInfo{wanted: wantsTrace(o.Traces, c)}
		pcapng, pcap := c.trace()
		switch {
		case pcap == "" && pcapng == "":
			ti.seqNote, ti.packetsNote = "No trace: the cell did not run a sim.", "No trace: the cell did not run a sim."
			ti.packets = "(no trace)"
		case !ti.wanted:
			note := fmt.Sprintf("Not summarised: this report ran with --traces %s. The traces are linked above.", o.Traces)
			ti.seqNote, ti.packetsNote, ti.packets = note, note, "(not listed: --traces "+o.Traces+")"
			fromCache(c, &ti) // what an earlier report worked out is still shown
		default:
			wanted = append(wanted, c)
		}
		infos[c] = ti
	}
	// Time-sequences: a pass over each raw pcap, a few at a time.
	start := time.Now()
	jobs := make(chan *Cell)
	var wg sync.WaitGroup
	for w := 0; w < max(1, runtime.NumCPU()); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range jobs {
				_, pcap := c.trace()
				var ts TimeSeq
				var err error
				if pcap == "" {
					err = fmt.Errorf("no trace_node_right.pcap")
				} else {
					ts, err = cachedTimeSeq(c.Cache, pcap, c.Trace.Transport)
				}
				mu.Lock()
				ti := infos[c]
				if err != nil {
					ti.seqNote = "No chart: " + err.Error()
				} else {
					ti.seq, ti.seqNote = &ts, seqNote(c, ts)
				}
				infos[c] = ti
				mu.Unlock()
			}
		}()
	}
	for _, c := range wanted {
		if ctx.Err() != nil {
			break
		}
		jobs <- c
	}
	close(jobs)
	wg.Wait()
	if len(wanted) > 0 {
		o.progress("report: time-sequences of %d traces in %s\n", len(wanted), time.Since(start).Round(100*time.Millisecond))
	}
	packetLists(ctx, o, dir, wanted, infos)
	return infos
}

// fromCache fills in the summaries an earlier report cached for this version of the cell's
// trace, without any new work.
func fromCache(c *Cell, ti *traceInfo) {
	if _, pcap := c.trace(); pcap != "" {
		if src, err := sourceKey(pcap); err == nil {
			if ts, ok := cachedOnly(c.Cache, src); ok {
				ti.seq, ti.seqNote = &ts, seqNote(c, ts)+" (cached by an earlier report)"
			}
		}
	}
	trace, mk, _ := packetSource(c)
	if tsv, ok := cachedPackets(c.Cache, trace, mk); ok {
		fillPackets(c, ti, trace, mk, tsv)
		ti.packetsNote += " (cached by an earlier report)"
	}
}

// seqNote says what the time-sequence chart shows.
func seqNote(c *Cell, ts TimeSeq) string {
	return fmt.Sprintf("Cumulative frame bytes per direction in the server-side trace (sim/trace_node_right.pcap%s): %d packets, %d of them between client and server over %s.",
		primaryNote(c), ts.Packets, ts.Counted, map[byte]string{6: "TCP", 17: "UDP"}[c.Trace.Transport])
}

// primaryNote says which repetition's trace a summary shows, when it is not the cell's own.
func primaryNote(c *Cell) string {
	if p := c.primary(); p != "" && p != c.Folder {
		return " of repetition " + filepath.Base(p)
	}
	return ""
}

// packetSource is the trace a cell's packet list is made from: the run's pcapng when it left
// one, else the raw pcap, of which the report then makes the pcapng itself (makePcapng) for TLS
// traffic, or wherever the endpoints wrote secrets (plaintext needs none).
func packetSource(c *Cell) (trace string, makePcapng bool, keys []byte) {
	pcapng, pcap := c.trace()
	if pcapng != "" {
		return pcapng, false, nil
	}
	keys = capture.Keylogs(c.primary())
	return pcap, pcap != "" && (!c.Trace.Plaintext || len(keys) > 0), keys
}

// packetLists fills in the packet lists (and the pcapngs the report makes): from the cache,
// else from one tshark batch.
func packetLists(ctx context.Context, o Options, dir string, cells []*Cell, infos map[*Cell]traceInfo) {
	var jobs []packetJob
	for _, c := range cells {
		trace, mk, keys := packetSource(c)
		if _, ok := cachedPackets(c.Cache, trace, mk); ok {
			continue
		}
		j := packetJob{trace: trace, cache: c.Cache, decodeAs: c.Trace.DecodeAs, makePcapng: mk}
		if len(keys) > 0 {
			j.keys = filepath.Join(c.Cache, "keys.log")
			if err := os.MkdirAll(c.Cache, 0o755); err == nil && os.WriteFile(j.keys, keys, 0o644) != nil {
				j.keys = ""
			}
		}
		jobs = append(jobs, j)
	}
	var batchErr error
	switch {
	case len(jobs) == 0:
	case o.Tshark == nil:
		batchErr = fmt.Errorf("no tshark")
	default:
		if err := o.Tshark.Available(ctx); err != nil {
			batchErr = fmt.Errorf("the tshark image (%s) is not available here (build it: make images IMAGES=tshark)", tshark.Image)
			o.progress("report: %v: the cell pages say so\n", batchErr)
		} else {
			o.progress("report: tshark over %d traces in one container (%d cached)\n", len(jobs), len(cells)-len(jobs))
			batchErr = tsharkBatch(ctx, o.Tshark, o.Out, filepath.Join(dir, "cache"), jobs, o.Progress)
		}
	}
	for _, c := range cells {
		ti := infos[c]
		trace, mk, _ := packetSource(c)
		tsv, ok := cachedPackets(c.Cache, trace, mk)
		switch {
		case !ok && batchErr != nil:
			ti.packets = "(no packet list)"
			ti.packetsNote = "No packet list: " + batchErr.Error() + "."
		case !ok:
			ti.packets = "(no packet list)"
			ti.packetsNote = "No packet list: tshark did not finish this trace."
		default:
			fillPackets(c, &ti, trace, mk, tsv)
		}
		infos[c] = ti
	}
}

// fillPackets puts a cached packet list on the page: the list, tshark's complaint when it
// listed nothing, and what it was made from.
func fillPackets(c *Cell, ti *traceInfo, trace string, mk bool, tsv string) {
	total := 0
	if ti.seq != nil {
		total = ti.seq.Packets
	}
	ti.packets = formatPackets(tsv, total)
	if tsv == "" {
		if msg, err := os.ReadFile(filepath.Join(c.Cache, "tshark.err")); err == nil && len(msg) > 0 {
			ti.packets += string(msg)
		}
	}
	listed, how := "sim/"+filepath.Base(trace), "decrypted with the secrets embedded in it"
	if mk {
		kind, _ := os.ReadFile(filepath.Join(c.Cache, pcapngKind))
		ti.madePcapng, ti.madeWithSecrets = filepath.Join(c.Cache, madePcapng), string(kind) == "secrets\n"
		listed = "the pcapng this report made of sim/" + filepath.Base(trace)
		if !ti.madeWithSecrets {
			how = "not decrypted: the endpoints wrote no TLS secrets"
		}
	} else if filepath.Ext(trace) != ".pcapng" {
		how = "not decrypted: no TLS here, or no secrets"
	}
	ti.packetsNote = fmt.Sprintf("tshark's packet list of %s%s (%s), the first %d packets: QUIC packet types and frames, HTTP/3 or HTTP/2 frames in the info column.",
		listed, primaryNote(c), how, packetLimit)
}
