package quicinterop

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wirelab/wirelab/internal/capture"
	"github.com/wirelab/wirelab/internal/quiccheck"
	"github.com/wirelab/wirelab/internal/quictrace"
	"github.com/wirelab/wirelab/internal/tshark"
)

// QuicTrace evaluates trace checks with one tshark pass over the server-side pcap (what upstream
// reads its verdicts from), decrypted with the endpoints' keylogs. It also leaves the trace as a
// pcapng with the secrets injected, which opens decrypted in Wireshark.
type QuicTrace struct {
	Tshark *tshark.Tool
}

// Check implements TraceChecker.
func (q QuicTrace) Check(ctx context.Context, cellDir string, c *Case, checks []Check, files []string) (TraceVerdict, error) {
	pcap := filepath.Join(cellDir, "sim", "trace_node_right.pcap")
	if _, err := os.Stat(pcap); err != nil {
		return TraceVerdict{}, fmt.Errorf("no server-side trace: %v", err)
	}
	// Only a trace the sim closed and sealed is evidence (the runner fences the cell first).
	if err := capture.Verify(filepath.Join(cellDir, "sim"), "trace_node_right.pcap"); err != nil {
		return TraceVerdict{}, fmt.Errorf("incomplete trace: %v", err)
	}
	keys, err := capture.MergeKeylogs(cellDir)
	if err != nil {
		return TraceVerdict{}, err
	}
	if keys == "" && len(checks) > 0 {
		return TraceVerdict{Reason: fmt.Sprintf("%s: neither endpoint wrote a TLS keylog (SSLKEYLOGFILE), the trace cannot be decrypted", checks[0])}, nil
	}
	if keys != "" {
		_ = q.Tshark.InjectSecrets(ctx, pcap, keys, filepath.Join(cellDir, "sim", "trace_node_right.pcapng"))
	}
	var names []string
	for _, chk := range checks {
		names = append(names, chk.Name)
	}
	filter := ""
	if quiccheck.LongHeadersSuffice(names) {
		filter = quictrace.LongHeaderFilter
	}
	trace, err := quictrace.Load(ctx, q.Tshark, pcap, keys, filter)
	if err != nil {
		return TraceVerdict{}, err
	}
	for _, chk := range checks {
		c, ok := quiccheck.Lookup(chk.Name)
		if !ok { // ParseCases refuses unknown checks; a Case built elsewhere may not have been
			return TraceVerdict{}, fmt.Errorf("unknown trace check %q", chk.Name)
		}
		if r := c.Run(trace); !r.OK() {
			return TraceVerdict{Reason: r.Check + ": " + r.Reason}, nil
		}
	}
	var v TraceVerdict
	if c.Measure == "goodput" {
		var total int64
		for _, n := range c.FileSizes {
			total += n
		}
		if v.GoodputKbps, _, err = quictrace.GoodputFromPcap(pcap, total); err != nil {
			v.Reason = err.Error()
		}
	}
	return v, nil
}
