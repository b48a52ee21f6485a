package quictrace

import (
	"context"
	"fmt"

	"github.com/wirelab/wirelab/internal/tshark"
)

// LoadExact is Load plus a second tshark pass without the HTTP/3 dissector (FramesOnlyArgs),
// whose frames replace the first pass's datagram by datagram: every STREAM byte the capture
// holds is in the streams, while the HTTP/3 frame types per datagram and the decoded HEADERS
// fields still come from the first pass. For traces whose streams carry more than HTTP/3.
func LoadExact(ctx context.Context, t *tshark.Tool, pcap, keylog string) (*Trace, error) {
	tr, err := Load(ctx, t, pcap, keylog, "")
	if err != nil {
		return nil, err
	}
	frames, err := parsePass(ctx, t, pcap, keylog, FramesOnlyArgs())
	if err != nil {
		return nil, fmt.Errorf("frames-only pass: %w", err)
	}
	RepairStreams(tr, frames)
	return tr, nil
}

// RepairStreams takes each datagram's packets from the frames-only pass (same capture, same
// frame numbers) and reassembles the streams and DATAGRAM frames again; what only the HTTP/3
// dissector knew (H3Frames, H3UniTypes, the HEADERS fields) stays.
func RepairStreams(t, framesOnly *Trace) {
	byFrame := make(map[int]*Datagram, len(framesOnly.Datagrams))
	for i := range framesOnly.Datagrams {
		byFrame[framesOnly.Datagrams[i].Frame] = &framesOnly.Datagrams[i]
	}
	for i := range t.Datagrams {
		if d, ok := byFrame[t.Datagrams[i].Frame]; ok {
			t.Datagrams[i].Packets = d.Packets
		}
	}
	t.H3Datagrams = nil
	t.H3Streams = reassembleH3(t)
	attachHeaderSections(t.H3Streams, t.sections)
}
