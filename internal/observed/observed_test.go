package observed

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func call(name, end string, messages int) Line {
	return Line{Kind: KindCall, Case: CancelCase, Call: name, End: end, Messages: messages}
}

// cancelLines is what a correct chain leaves behind, with one call replaced.
func cancelLines(replace ...Line) []Line {
	lines := []Line{call(CallControl, EndEOS, 2), call(CallCut, EndCancelled, 1), call(CallAbandon, EndCancelled, 1)}
	for _, r := range replace {
		for i := range lines {
			if lines[i].Call == r.Call {
				lines[i] = r
			}
		}
	}
	return append(lines, Line{Kind: KindStop, Case: CancelCase})
}

func TestJudgeCancel(t *testing.T) {
	for _, tt := range []struct {
		name  string
		lines []Line
		want  string // "" passes
	}{
		{"cancelled everywhere", cancelLines(), ""},
		{"cut stream never arrived", append(cancelLines()[:1], cancelLines()[2:]...), ""},
		{"cut stream ended cleanly", cancelLines(call(CallCut, EndEOS, 1)), "clean end of stream after 1 message(s) and answered OK"},
		{"cut stream left open", cancelLines(call(CallCut, EndOpen, 1)), "still open when the server stopped"},
		{"cut stream failed", cancelLines(call(CallCut, EndFailed, 0)), "end failed"},
		{"abandoned stream left open", cancelLines(call(CallAbandon, EndOpen, 1)), "cancelled after its first answer: still open"},
		{"abandoned stream never arrived", cancelLines()[:2], "never reached the server"},
		{"control stream cut short", cancelLines(call(CallControl, EndEOS, 1)), "arrived as eos after 1 message(s)"},
		{"no control stream", cancelLines()[1:], "the control stream never reached the server"},
		{"both wrong, both named", cancelLines(call(CallCut, EndEOS, 1), call(CallAbandon, EndOpen, 1)),
			"answered OK, a committed call; the client's cancel must reach it as RST_STREAM CANCEL (PROTOCOL-HTTP2.md Client Cancellation); the server stream the client cancelled after its first answer: still open"},
	} {
		err := Judge(CancelCase, tt.lines)
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

// deadlineLines: each call sent at t0 with its timeout; the server's handler starts trip later
// with left remaining (present false: no deadline).
func deadlineLines(trip time.Duration, left func(sent time.Duration) time.Duration, present bool) []Line {
	t0 := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC).UnixNano()
	var lines []Line
	for _, dc := range DeadlineCalls {
		d := &Deadline{Present: present, StartUnixNS: t0 + int64(trip), ClientSentUnixNS: t0, ClientDeadlineUnixNS: t0 + int64(dc.Timeout)}
		if present {
			d.RemainingNS = int64(left(dc.Timeout))
		}
		lines = append(lines, Line{Kind: KindCall, Case: DeadlineCase, Call: dc.Name, End: EndAnswered, Deadline: d})
	}
	return append(lines, Line{Kind: KindStop, Case: DeadlineCase})
}

func TestJudgeDeadline(t *testing.T) {
	trip := 40 * time.Millisecond
	for _, tt := range []struct {
		name  string
		lines []Line
		want  string
	}{
		{"relayed, converters took 3 ms", deadlineLines(trip, func(s time.Duration) time.Duration { return s - 3*time.Millisecond }, true), ""},
		{"relayed unchanged (transit not subtracted)", deadlineLines(trip, func(s time.Duration) time.Duration { return s - 10*time.Microsecond }, true), ""},
		{"rounded up by a unit", deadlineLines(trip, func(s time.Duration) time.Duration { return s + time.Millisecond }, true), ""},
		{"lost the whole trip on a loaded machine", deadlineLines(2*time.Second, func(s time.Duration) time.Duration { return s - 2*time.Second }, true), ""},
		{"dropped", deadlineLines(trip, nil, false), "the server saw no deadline"},
		{"reset to a default", deadlineLines(trip, func(time.Duration) time.Duration { return 10 * time.Second }, true),
			"deadline-20s: the server had 10000.000 ms left of the client's 20000.000 ms deadline, sent 40.000 ms before: less than the 19955.000 ms the trip explains"},
		{"grew", deadlineLines(trip, func(s time.Duration) time.Duration { return s + time.Second }, true), "more than the client sent"},
		{"milliseconds read as microseconds", deadlineLines(trip, func(s time.Duration) time.Duration { return s / 1000 }, true), "cut short on the way"},
		{"shorter than the trip explains", deadlineLines(trip, func(s time.Duration) time.Duration { return s - trip - 10*time.Millisecond }, true), "cut short"},
	} {
		err := Judge(DeadlineCase, tt.lines)
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
	lines := deadlineLines(trip, func(s time.Duration) time.Duration { return s }, true)
	lines[0].Deadline.ClientSentUnixNS = 0
	if err := Judge(DeadlineCase, lines); err == nil || !strings.Contains(err.Error(), "metadata did not reach the server") {
		t.Errorf("client metadata lost: %v", err)
	}
	if err := Judge(DeadlineCase, lines[1:]); err == nil || !strings.Contains(err.Error(), "never reached the server") {
		t.Errorf("call missing: %v", err)
	}
}

func TestReadFileWantsTheStopLine(t *testing.T) {
	dir := t.TempDir()
	write := func(body string) string {
		p := filepath.Join(dir, File)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	complete := `{"kind":"call","case":"c","call":"control","end":"eos","messages":2}` + "\n" + `{"kind":"stop","case":"c"}` + "\n"
	if lines, err := ReadFile(write(complete)); err != nil || len(lines) != 2 {
		t.Errorf("complete file: %v, %d lines", err, len(lines))
	}
	for body, want := range map[string]string{
		`{"kind":"call","case":"c","call":"control","end":"eos"}` + "\n": "no stop line",
		"":                                "no stop line",
		`{"kind":"cal"}` + "\n":           ":1: kind \"cal\"",
		"{\"kind\":\"stop\"}\nnot json\n": ":2: invalid character",
	} {
		if _, err := ReadFile(write(body)); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), File) {
			t.Errorf("%q: %v, want an error naming the file and %q", body, err, want)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "missing.jsonl")); err == nil {
		t.Error("missing file: no error")
	}
}

func TestJudgeOtherCase(t *testing.T) {
	if Judged("empty_unary") || Judge("empty_unary", nil) == nil {
		t.Error("a case without observations is judged")
	}
}
