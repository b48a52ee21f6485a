package quictrace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wirelab/wirelab/internal/capture"
	"github.com/wirelab/wirelab/internal/tshark"
)

// ErrNoKeylog: neither endpoint of the cell wrote a TLS keylog, so its trace cannot be decrypted.
var ErrNoKeylog = errors.New("neither endpoint wrote a TLS keylog (SSLKEYLOGFILE), the trace cannot be decrypted")

// LoadCell reads a fenced cell's sealed server-side trace (sim/trace_node_right.pcap), decrypted
// with both endpoints' keylogs merged into the cell's keys.log, every stream byte exact
// (LoadExact), and leaves the pcapng with the secrets in it beside the pcap for Wireshark. An
// unsealed trace is an error: a verdict reads complete evidence only.
func LoadCell(ctx context.Context, tool *tshark.Tool, cell string) (*Trace, error) {
	pcap := filepath.Join(cell, "sim", "trace_node_right.pcap")
	if _, err := os.Stat(pcap); err != nil {
		return nil, fmt.Errorf("no server-side trace: %v", err)
	}
	if err := capture.Verify(filepath.Join(cell, "sim"), "trace_node_right.pcap"); err != nil {
		return nil, fmt.Errorf("incomplete trace: %v", err)
	}
	keys, err := capture.MergeKeylogs(cell)
	if err != nil {
		return nil, err
	}
	if keys == "" {
		return nil, ErrNoKeylog
	}
	_ = tool.InjectSecrets(ctx, pcap, keys, filepath.Join(cell, "sim", "trace_node_right.pcapng"))
	return LoadExact(ctx, tool, pcap, keys)
}
