// Package observed is what the gRPC server behind a gRPC-web chain saw of a case's calls, and the
// case's verdict on it. The probe's server role (images/grpcweb-probe), a real grpc-go server,
// writes one JSON line per call when the call ends, the calls still open when it is stopped, then
// a stop line; the suite reads the file once the cell is fenced and judges it (Judge). The checks
// are the gRPC requirements a converter can only break where the client does not look: what
// reaches the upstream.
package observed

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// File is the observation file's name in the server's log folder (/logs in its container).
const File = "observed.jsonl"

// The request metadata by which the client tells the server about a call.
const (
	// CallKey names the call, so the server's record and the verdict can tell the calls apart.
	CallKey = "x-probe-call"
	// SentKey and DeadlineKey: the wall-clock time (Unix nanoseconds) at which the client started
	// the call, and the deadline it set. The lab's containers share the host's clock.
	SentKey     = "x-probe-sent"
	DeadlineKey = "x-probe-deadline"
)

// How a call ended, as the server saw it.
const (
	// EndEOS: the request stream ended cleanly (END_STREAM) and the server answered OK: the call
	// is committed.
	EndEOS = "eos"
	// EndCancelled: the call's context ended before the request stream did (RST_STREAM CANCEL,
	// or the connection going away).
	EndCancelled = "cancelled"
	// EndFailed: the request stream ended in another error (say, a message cut short).
	EndFailed = "failed"
	// EndAnswered: a unary call the server answered.
	EndAnswered = "answered"
	// EndOpen: the call was still open when the server was stopped.
	EndOpen = "open"
)

// Line is one line of the file: a call (Kind "call") or the server's stop (Kind "stop", last).
type Line struct {
	Kind     string    `json:"kind"`
	Case     string    `json:"case"`
	Call     string    `json:"call,omitempty"` // the client's name for it (CallKey)
	Method   string    `json:"method,omitempty"`
	Messages int       `json:"messages"` // request messages the server received
	End      string    `json:"end,omitempty"`
	Error    string    `json:"error,omitempty"` // what the server's stream reported at the end
	Deadline *Deadline `json:"deadline,omitempty"`
	Start    string    `json:"start,omitempty"` // RFC 3339, when the handler started
	Finish   string    `json:"finish,omitempty"`
}

// Deadline is what the server saw of a call's deadline at the start of its handler.
type Deadline struct {
	Present     bool  `json:"present"`
	RemainingNS int64 `json:"remaining_ns,omitempty"` // the time the handler had left
	StartUnixNS int64 `json:"start_unix_ns"`          // the handler's start, wall clock
	// What the client said (SentKey, DeadlineKey); 0 when the metadata did not arrive.
	ClientSentUnixNS     int64 `json:"client_sent_unix_ns,omitempty"`
	ClientDeadlineUnixNS int64 `json:"client_deadline_unix_ns,omitempty"`
}

// Kinds of lines.
const (
	KindCall = "call"
	KindStop = "stop"
)

// ReadFile reads an observation file that the server finished: its last line is the stop line.
// Without it the server was killed before it wrote what it saw, and nothing can be judged.
func ReadFile(path string) ([]Line, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines []Line
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		var l Line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		if l.Kind != KindCall && l.Kind != KindStop {
			return nil, fmt.Errorf("%s:%d: kind %q: want call or stop", path, n, l.Kind)
		}
		lines = append(lines, l)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(lines) == 0 || lines[len(lines)-1].Kind != KindStop {
		return nil, fmt.Errorf("%s: %w", path, ErrIncomplete)
	}
	return lines, nil
}

// ErrIncomplete: the file has no stop line.
var ErrIncomplete = errors.New("no stop line: the server did not finish writing what it saw")
