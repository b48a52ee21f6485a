package livefuzz

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/wirelab/wirelab/internal/jsonfile"
	"github.com/wirelab/wirelab/internal/lifecycle"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/quictrace"
)

// replayed is the client's replay.json: each input's answer, then the liveness check.
type replayed struct {
	Inputs []struct {
		Signature string `json:"signature"`
		Handshake bool   `json:"handshake"`
		Close     *struct {
			App       bool   `json:"app"`
			Code      uint64 `json:"code"`
			FrameType uint64 `json:"frame_type"`
		} `json:"close"`
		// the RFC oracle's judgement of the input by the client's model of today (null: no rule
		// judges it; held null: the code is another violation's)
		Judged *struct {
			Rule string `json:"rule"`
			Held *bool  `json:"held"`
		} `json:"judged"`
	} `json:"inputs"`
	Liveness string `json:"liveness"`
}

// replayVerdict is make fuzz-repro's: the cell FAILS when the finding reproduced (the server
// misbehaved again), with what the oracle saw; an answer on the wire (an RFC finding, a
// CONNECTION_CLOSE's frame type) is confirmed from the decrypted server-side trace too, not only
// from what the fuzzing client recorded.
func (m *Matrix) replayVerdict(ctx context.Context, cell matrix.Cell, ev lifecycle.Evidence) matrix.Result {
	f := m.replay
	res := matrix.Result{Result: matrix.Failed}
	asan, err := readASan(ev.Dir)
	if err != nil {
		res.Reason = "the server's ASan report: " + err.Error()
		return res
	}
	switch {
	case asan != nil && f.Oracle == "crash":
		res.Reason = "reproduced: " + asan.Line() + " during the replay"
		if asan.Signature() != f.Signature {
			res.Reason = fmt.Sprintf("the server crashed again, with another report: %s (the finding: %s)", asan.Line(), f.Signature)
		}
		return res
	case asan != nil:
		res.Reason = fmt.Sprintf("%s during the replay (the finding was %s)", asan.Line(), f.Oracle)
		return res
	case len(ev.PeerExits) > 0:
		pe := ev.PeerExits[0]
		res.Reason = fmt.Sprintf("reproduced: the server exited %d during the replay: %s", pe.Code, pe.Words)
		if f.Oracle != "crash" {
			res.Reason = fmt.Sprintf("the server exited %d during the replay (the finding was %s): %s", pe.Code, f.Oracle, pe.Words)
		}
		return res
	}
	var rp replayed
	if err := jsonfile.Read(filepath.Join(ev.Dir, fuzzOut, "replay.json"), &rp); err != nil || len(rp.Inputs) == 0 {
		res.Reason = fmt.Sprintf("the replay wrote no answers (client exit %d: %s): %v", ev.ClientExit, ev.ClientWords, err)
		return res
	}
	switch f.Oracle {
	case "crash":
		return notReproduced(res, "the server kept running")
	case "liveness":
		if rp.Liveness != "" {
			res.Reason = "reproduced: a second connection was not served after the inputs: " + rp.Liveness
			return res
		}
		return notReproduced(res, "a second connection was served")
	case "cpu":
		// the lifecycle's Finished hook measured the server once the replay's client stopped
		var res2 resources
		if err := jsonfile.Read(filepath.Join(ev.Dir, resourcesFile), &res2); err != nil || !res2.Measured {
			res.Reason = fmt.Sprintf("the server's idle CPU was not measured (%v)", err)
			return res
		}
		if res2.IdleCPU > m.bounds.IdleCPULimit {
			res.Reason = "reproduced: " + cpuWords(res2, m.bounds.IdleCPULimit)
			return res
		}
		return notReproduced(res, cpuWords(res2, m.bounds.IdleCPULimit))
	case "rfc", "close-frame-type":
		last := rp.Inputs[len(rp.Inputs)-1]
		desc, cl, err := serverClose(ctx, m, ev.Dir, len(rp.Inputs)-1)
		if err != nil {
			res.Reason = "trace: " + err.Error()
			return res
		}
		if (last.Close == nil) != (cl == nil) || (cl != nil && (last.Close.App != (cl.Type == quictrace.FrameApplicationClose) || last.Close.Code != cl.ErrorCode)) {
			res.Reason = fmt.Sprintf("the client recorded %s but the decrypted trace shows %s", last.Signature, desc)
			return res
		}
		if f.Oracle == "close-frame-type" {
			if cl == nil || cl.Type != quictrace.FrameConnectionClose || knownFrameType(cl.ClosedFrameType) {
				return notReproduced(res, fmt.Sprintf("the server answered %s this time (trace: %s)", last.Signature, desc))
			}
			res.Reason = fmt.Sprintf("reproduced: the trace shows %s, no frame type at all (RFC 9000 §19.19)", desc)
			return res
		}
		if last.Signature != f.Observed {
			return notReproduced(res, fmt.Sprintf("the server answered %s this time (the finding: %s; trace: %s)", last.Signature, f.Observed, desc))
		}
		if j := last.Judged; j == nil || j.Rule != f.Rule || j.Held == nil || *j.Held {
			return notReproduced(res, fmt.Sprintf("the same answer (%s), but today's model does not hold rule %s broken by it (%s)", last.Signature, f.Rule, judgedWords(last.Judged)))
		}
		res.Reason = fmt.Sprintf("reproduced: rule %s (%s): want %s, the server answered %s; trace: %s", f.Rule, f.Section, f.Expected, last.Signature, desc)
		return res
	}
	return notReproduced(res, "a "+f.Oracle+" finding is judged over a campaign, not a replay (run make fuzz-live on the target)")
}

// knownFrameType: RFC 9000's frame types, DATAGRAM's, and the drafts the lab's stacks speak
// (IMMEDIATE_ACK, RESET_STREAM_AT, ACK_FREQUENCY), as the client's wire.KNOWN_FRAME_TYPES.
// closes reports whether a datagram carries a CONNECTION_CLOSE.
func closes(d quictrace.Datagram) bool {
	for _, p := range d.Packets {
		for _, fr := range p.Frames {
			if fr.Type == quictrace.FrameConnectionClose || fr.Type == quictrace.FrameApplicationClose {
				return true
			}
		}
	}
	return false
}

func knownFrameType(t uint64) bool {
	return t < 0x20 || t == 0x24 || t == 0x30 || t == 0x31 || t == 0xaf
}

func judgedWords(j *struct {
	Rule string `json:"rule"`
	Held *bool  `json:"held"`
}) string {
	switch {
	case j == nil:
		return "no rule judges the input"
	case j.Held == nil:
		return "rule " + j.Rule + ": the answer is another violation's"
	case *j.Held:
		return "rule " + j.Rule + " held"
	}
	return "rule " + j.Rule + " broken"
}

func notReproduced(res matrix.Result, why string) matrix.Result {
	res.Result, res.Reason = matrix.Succeeded, "did not reproduce: "+why
	return res
}

// serverClose reads the sealed, decrypted server-side trace and returns the server's
// CONNECTION_CLOSE on the n-th QUIC connection (0-based, in the order they began) with its
// description, or nil and why there is none.
func serverClose(ctx context.Context, m *Matrix, cell string, n int) (string, *quictrace.Frame, error) {
	t, err := quictrace.LoadCell(ctx, m.traceTool, cell)
	if err != nil {
		return "", nil, err
	}
	desc, cl := closeOnConnection(t, n)
	return desc, cl, nil
}

// closeOnConnection finds the server's CONNECTION_CLOSE on the n-th connection of the trace.
func closeOnConnection(t *quictrace.Trace, n int) (string, *quictrace.Frame) {
	var order []int
	seen := map[int]bool{}
	for _, d := range t.Datagrams {
		if !seen[d.Conn] {
			seen[d.Conn] = true
			order = append(order, d.Conn)
		}
	}
	if n >= len(order) {
		return fmt.Sprintf("no connection %d in the trace (%d connections)", n+1, len(order)), nil
	}
	conn, undecrypted := order[n], false
	for _, d := range t.Datagrams {
		if d.Conn != conn {
			continue
		}
		if d.Dir != quictrace.ServerToClient {
			if closes(d) {
				break // the client closed the connection itself: what the server sends after is its echo
			}
			continue
		}
		for _, p := range d.Packets {
			for i, fr := range p.Frames {
				switch fr.Type {
				case quictrace.FrameConnectionClose:
					return fmt.Sprintf("CONNECTION_CLOSE %s for frame type 0x%x", CodeName(false, fr.ErrorCode), fr.ClosedFrameType), &p.Frames[i]
				case quictrace.FrameApplicationClose:
					return "CONNECTION_CLOSE (application) " + CodeName(true, fr.ErrorCode), &p.Frames[i]
				}
			}
			undecrypted = undecrypted || (!p.Decrypted && p.Type == quictrace.Type1RTT)
		}
	}
	if undecrypted {
		return "no CONNECTION_CLOSE among the server's decrypted packets (some 1-RTT packets did not decrypt)", nil
	}
	return "no CONNECTION_CLOSE from the server", nil
}
