package main

import (
	"context"
	"encoding/json"
	"io"
	"sync"
	"time"

	"google.golang.org/grpc/metadata"

	"github.com/wirelab/wirelab/internal/observed"
)

// observer records what the probe's gRPC server saw of each call (internal/observed): a line per
// call when the call ends, the calls still open and a stop line when the server stops. await lets
// the client wait, through the chain, until the server has seen a point of a call.
type observer struct {
	testcase string
	mu       sync.Mutex
	w        io.Writer             // nil: nothing is written
	named    map[string]*callState // the first call of each name, or the state an await waits on
	open     map[*callState]bool
	stopped  bool
}

// callState is one call as the server sees it.
type callState struct {
	line      observed.Line
	begun     bool
	first     chan struct{} // closed at the first request message
	ended     chan struct{} // closed when the call's line is written
	firstOnce sync.Once
}

// The points of a call the client can await.
const (
	pointMessage = "message" // the first request message arrived
	pointEnd     = "end"     // the call ended (or the server stopped)
)

func newObserver(testcase string, w io.Writer) *observer {
	return &observer{testcase: testcase, w: w, named: map[string]*callState{}, open: map[*callState]bool{}}
}

func newCallState() *callState {
	return &callState{first: make(chan struct{}), ended: make(chan struct{})}
}

// begin starts the record of a call, named by its request metadata (observed.CallKey).
func (o *observer) begin(ctx context.Context, method string) *callState {
	name := ""
	if v := metadata.ValueFromIncomingContext(ctx, observed.CallKey); len(v) > 0 {
		name = v[0]
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	cs := o.named[name]
	if cs == nil || cs.begun { // a second call of the same name is recorded, not awaited
		cs = newCallState()
		if o.named[name] == nil {
			o.named[name] = cs
		}
	}
	cs.begun = true
	cs.line = observed.Line{Kind: observed.KindCall, Case: o.testcase, Call: name, Method: method, Start: stamp(time.Now())}
	o.open[cs] = true
	return cs
}

// message counts a request message.
func (o *observer) message(cs *callState) {
	o.mu.Lock()
	cs.line.Messages++
	o.mu.Unlock()
	cs.firstOnce.Do(func() { close(cs.first) })
}

// end writes the call's line, ended as end with the stream's error (if any); edit fills in the
// rest. After stop nothing more is written: the call was recorded open.
func (o *observer) end(cs *callState, end string, err error, edit func(*observed.Line)) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.stopped || !o.open[cs] {
		return
	}
	delete(o.open, cs)
	cs.line.End, cs.line.Finish = end, stamp(time.Now())
	if err != nil {
		cs.line.Error = err.Error()
	}
	if edit != nil {
		edit(&cs.line)
	}
	o.write(cs.line)
	close(cs.ended)
}

// await waits until the call named name reaches point (pointMessage, pointEnd) or ctx ends, and
// returns what the server saw of it so far.
func (o *observer) await(ctx context.Context, name, point string) (observed.Line, bool) {
	o.mu.Lock()
	cs := o.named[name]
	if cs == nil {
		cs = newCallState()
		o.named[name] = cs
	}
	o.mu.Unlock()
	ch := cs.ended
	if point == pointMessage {
		ch = cs.first
	}
	select {
	case <-ch:
	case <-ctx.Done():
		return observed.Line{}, false
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return cs.line, true
}

// stop records the calls still open and the stop line; later ends are not written.
func (o *observer) stop() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.stopped {
		return
	}
	o.stopped = true
	now := stamp(time.Now())
	for cs := range o.open {
		cs.line.End, cs.line.Finish = observed.EndOpen, now
		o.write(cs.line)
		close(cs.ended)
	}
	o.open = nil
	o.write(observed.Line{Kind: observed.KindStop, Case: o.testcase, Finish: now})
}

// write appends one JSON line (o.mu held).
func (o *observer) write(l observed.Line) {
	if o.w == nil {
		return
	}
	b, _ := json.Marshal(l)
	_, _ = o.w.Write(append(b, '\n'))
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
