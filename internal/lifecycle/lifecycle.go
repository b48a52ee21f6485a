// Package lifecycle runs one repetition of a matrix cell the same way in every suite: allocate
// the cell's networks, write rerun.sh, start the sim and the peers, wait until they listen,
// start the client, watch every peer while it runs (a peer that dies fails the cell with its
// exit and last words; 127 makes it unsupported), fence whatever writes evidence, and only then
// hand the sealed evidence to the suite's verdict. A suite says only which containers run with
// which environment (Layout) and how to judge the evidence (Judge).
package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/wirelab/wirelab/internal/docker"
	"github.com/wirelab/wirelab/internal/jsonfile"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/run"
	"github.com/wirelab/wirelab/internal/topology"
)

// Env is what every cell of a run shares: the run, its compose, the checkout and the subnet
// allocator.
type Env struct {
	Run     *run.Run
	Compose *docker.Compose
	Root    string // the checkout: compose/lab.yml
	Alloc   *topology.Allocator
}

// Layout is a suite's word on one run of a cell's topology.
type Layout struct {
	Name  []string          // the cell's compose project name parts (unique within the run)
	Env   map[string]string // CLIENT_IMAGE, SERVER_IMAGE, TESTCASE, SIM_PROFILE, SIM_SEED, ...
	Peers []Peer            // started with the sim, in this order, before the client
	// Client is the service whose exit ends the cell (default "client"); it starts once every
	// peer listens.
	Client string
	Limit  time.Duration // how long the client may run
	Rerun  string        // the wirelab command that runs this cell alone (rerun.sh)
	// Undeclared: an endpoint declares no test cases (an image given by reference), so its 127
	// is the plain unsupported of upstream's contract, not a declared case found unsupported.
	Undeclared bool
	// Started runs once every peer listens, before the client starts (a check of a peer's
	// setup, a meter started); an error fails the cell.
	Started func(ctx context.Context, c *topology.Cell) error
	// Finished runs once the client exited, while the peers still run (a meter read, a peer
	// of the measurement stopped); an error fails the cell.
	Finished func(ctx context.Context, c *topology.Cell) error
}

// Peer is a service that runs beside the client.
type Peer struct {
	Service string // compose service: server, edge, origin, iperf_server, ...
	Listen  string // "udp" or "tcp": the client starts once it listens on Port; "": no wait
	Port    int
	// Ends marks a peer that may end by itself during the cell (a measurement's competing
	// flow): its exit is no failure.
	Ends bool
	// Finishes marks a peer that ends by itself once its part is done (a WebTransport server
	// that requested the client's files): exit 0 is its success, any other exit fails the cell
	// at once (127: unsupported), as a dying peer does.
	Finishes bool
	// Judged marks a peer whose death is the verdict's to judge, not the cell's failure (a
	// server under fuzzing): its exit stops the client and fences the cell, and the verdict
	// reads it in Evidence.PeerExits.
	Judged bool
}

// PeerExit is a Judged peer's death as the lifecycle saw it: its exit code and last words.
type PeerExit struct {
	Service string `json:"service"`
	Code    int    `json:"code"`
	Words   string `json:"words"`
}

// finishedWell reports whether a peer's exit with code is its own success, not a death.
func (p Peer) finishedWell(code string) bool {
	return p.Ends || p.Judged || (p.Finishes && code == "0")
}

// Evidence is what a verdict reads: the cell's folder, fenced (every writer stopped, the sim's
// traces sealed), the client's exit code and its last words (read before the fence), also kept
// in the folder (EvidenceFile) so that the stored evidence can be judged again.
type Evidence struct {
	Dir         string `json:"-"`
	ClientExit  int    `json:"client_exit"`
	ClientWords string `json:"client_words"`
	// PeerExits are the Judged peers that exited before the fence (a fuzzed server that died).
	PeerExits []PeerExit `json:"peer_exits,omitempty"`
}

// EvidenceFile is where a cell keeps what the lifecycle saw of its client.
const EvidenceFile = "evidence.json"

// ReadEvidence reads a fenced cell's evidence from its folder.
func ReadEvidence(dir string) (Evidence, error) {
	var ev Evidence
	err := jsonfile.Read(filepath.Join(dir, EvidenceFile), &ev)
	ev.Dir = dir
	return ev, err
}

// Judge is a suite's verdict over a cell's sealed evidence (Result, Reason, Details, Values).
type Judge func(ctx context.Context, ev Evidence) matrix.Result

// Unsupported is a Layout error that makes the repetition unsupported, not failed.
type Unsupported struct{ Why string }

func (u Unsupported) Error() string { return u.Why }

// nextTopology numbers the topologies this process brings up (compose project names).
var nextTopology atomic.Uint64

// listenLimit is how long a peer may take to listen: a loaded machine starts servers late, and a
// client with a short handshake timeout must not fail for that.
const listenLimit = 20 * time.Second

// Run runs one repetition of a cell with its output in dir (created by the caller, with the
// suite's input files in it) and returns its verdict: the lifecycle's own when a step before the
// verdict failed, else judge's. The cell's containers and networks are removed before it returns.
func Run(ctx context.Context, e Env, dir string, l Layout, judge Judge) (res matrix.Result) {
	res.Result, res.Rerun = matrix.Failed, l.Rerun
	steps := newStepClock()
	defer steps.write(filepath.Join(dir, StepsFile))
	defer func() { res.Load = LoadAverage() }()
	fail := func(format string, a ...any) matrix.Result {
		res.Result, res.Reason = matrix.Failed, fmt.Sprintf(format, a...)
		return res
	}
	// A cell that runs was declared supported (the manifests rule the others out before): an
	// endpoint answering 127 now makes it unsupported at run time, a result of its own.
	unsupported := func(format string, a ...any) matrix.Result {
		res.Result, res.Reason = matrix.UnsupportedAtRunTime, fmt.Sprintf(format, a...)
		if l.Undeclared {
			res.Result = matrix.Unsupported
		}
		return res
	}
	client := l.Client
	if client == "" {
		client = "client"
	}
	// A project of its own per repetition: the engine's events of the last one's containers
	// (same cell, moments ago) must not reach this one's watch.
	name := append(append([]string(nil), l.Name...), strconv.FormatUint(nextTopology.Add(1), 36))
	cell, release, err := e.Alloc.AllocateCell(ctx, e.Run, e.Compose, e.Root, dir, l.Env, name...)
	if err != nil {
		return fail("%v", err)
	}
	defer release()
	_ = cell.WriteRerun(l.Rerun)
	// The cell comes down (logs saved, containers and networks removed) while the verdict reads
	// the sealed evidence: nothing of the cell writes any more, and the verdict reads only files.
	closed := make(chan error, 1)
	closing := false
	closeCell := func() {
		if !closing {
			closing = true
			go func() { closed <- cell.Close() }()
		}
	}
	defer func() {
		closeCell()
		if err := <-closed; err != nil && res.Reason == "" {
			res.Result, res.Reason = matrix.Failed, err.Error()
		}
		steps.mark("verdict+down")
	}()
	steps.mark("allocate")
	exits, err := cell.WatchExits(ctx, time.Now())
	if err != nil {
		return fail("%v", err)
	}
	defer exits.Stop()

	// Every container created at once, the sim and the peers started, then every listener
	// waited for at once; the client's start is then only a start.
	services := []string{"sim"}
	for _, p := range l.Peers {
		services = append(services, p.Service)
	}
	if err := cell.Create(ctx); err != nil {
		return fail("%v", err)
	}
	if err := cell.Start(ctx, services...); err != nil {
		return fail("%v", err)
	}
	steps.mark("up")
	if why, code := waitListening(ctx, cell, l.Peers); why != "" {
		if code == 127 {
			return unsupported("%s", why)
		}
		return fail("%s", why)
	}
	if ctx.Err() != nil {
		return res
	}
	if l.Started != nil {
		if err := l.Started(ctx, cell); err != nil {
			return fail("%v", err)
		}
	}
	steps.mark("listen")
	if err := cell.Start(ctx, client); err != nil {
		return fail("%v", err)
	}
	steps.mark("client-up")
	code, why, peerCode, judged := watch(ctx, cell, exits, client, l)
	steps.mark("client")
	if ctx.Err() != nil {
		return res
	}
	switch {
	case why != "" && peerCode == 127:
		return unsupported("%s", why)
	case why != "":
		return fail("%s", why)
	case code == 127:
		return unsupported("the %s answered 127 (test case not supported)", client)
	}
	words := cell.LastLogLine(client)
	if judged != nil {
		code = -1 // the client was still running: the fence stops it
	} else if l.Finished != nil {
		if err := l.Finished(ctx, cell); err != nil {
			return fail("%v", err)
		}
	}
	fenceAt := time.Now()
	if err := cell.Fence(ctx, peerServices(l.Peers)...); err != nil {
		return fail("%v", err)
	}
	if why := diedBeforeFence(ctx, cell, exits, l.Peers, fenceAt); why != "" {
		return fail("%s", why)
	}
	steps.mark("fence")
	closeCell()
	ev := Evidence{Dir: dir, ClientExit: code, ClientWords: words, PeerExits: judgedExits(cell, exits, l.Peers, judged, fenceAt)}
	if err := jsonfile.Write(filepath.Join(dir, EvidenceFile), ev); err != nil {
		return fail("%v", err)
	}
	v := judge(ctx, ev)
	res.Result, res.Reason, res.Details, res.Values, res.Cross = v.Result, v.Reason, v.Details, v.Values, v.Cross
	res.Subs, res.BySubs = v.Subs, v.BySubs
	return res
}

// waitListening waits for every listening peer at once; it returns why the cell cannot go on
// ("" when every peer listens) and the exit code of a peer that exited first.
func waitListening(ctx context.Context, cell *topology.Cell, peers []Peer) (string, int) {
	type outcome struct {
		why  string
		code int
	}
	ch := make(chan outcome, len(peers))
	n := 0
	for _, p := range peers {
		if p.Listen == "" {
			continue
		}
		n++
		go func(p Peer) {
			exited, code, err := cell.WaitListen(ctx, p.Service, p.Listen, p.Port, listenLimit)
			switch {
			case exited && code == 127:
				ch <- outcome{fmt.Sprintf("the %s answered 127 (test case not supported): %s", p.Service, cell.LastLogLine(p.Service)), 127}
			case exited:
				ch <- outcome{fmt.Sprintf("the %s exited %d before the client started: %s", p.Service, code, cell.LastLogLine(p.Service)), code}
			case err != nil && ctx.Err() == nil:
				ch <- outcome{err.Error(), -1}
			default:
				ch <- outcome{}
			}
		}(p)
	}
	first := outcome{}
	for range n {
		if o := <-ch; o.why != "" && first.why == "" {
			first = o
		}
	}
	return first.why, first.code
}

// watch waits for the client to exit within the layout's limit while watching every peer and
// the sim: a peer that exits (but one that may end by itself) or a sim that dies ends the wait
// at once with why, naming the exit and the peer's last words; so does the limit. A peer that
// died just as the client finished is caught by a last look at every peer's state.
func watch(ctx context.Context, cell *topology.Cell, exits *topology.Exits, client string, l Layout) (code int, why string, peerCode int, judged *PeerExit) {
	byService := map[string]Peer{}
	for _, p := range l.Peers {
		byService[p.Service] = p
	}
	limit := time.NewTimer(l.Limit)
	defer limit.Stop()
	for {
		select {
		case <-ctx.Done():
			return -1, "", 0, nil
		case <-limit.C:
			return -1, fmt.Sprintf("timeout: the %s did not finish within %s%s", client, l.Limit, deaths(cell, l.Peers)), 0, nil
		case e := <-exits.C():
			switch {
			case e.Service == client:
				return e.Code, lastLook(cell, l.Peers), 0, nil
			case e.Service == "sim":
				return -1, fmt.Sprintf("the sim died (exit %d) while the %s ran", e.Code, client), 0, nil
			case byService[e.Service].Judged:
				return -1, "", 0, &PeerExit{Service: e.Service, Code: e.Code, Words: cell.LastLogLine(e.Service)}
			case byService[e.Service].finishedWell(strconv.Itoa(e.Code)):
			default:
				return -1, peerDied(cell, e.Service, e.Code), e.Code, nil
			}
		}
	}
}

func peerDied(cell *topology.Cell, service string, code int) string {
	if code == 127 {
		return fmt.Sprintf("the %s answered 127 (test case not supported)", service)
	}
	return fmt.Sprintf("the %s exited %d during the cell: %s", service, code, cell.LastLogLine(service))
}

// lastLook is why the cell fails when a peer that must run (or the sim) is no longer running
// once the client exited, else "".
func lastLook(cell *topology.Cell, peers []Peer) string {
	for _, p := range append([]Peer{{Service: "sim"}}, peers...) {
		if p.Ends {
			continue
		}
		state, err := cell.State(context.Background(), p.Service)
		if st, code, _ := strings.Cut(state, " "); err == nil && st != "running" && !p.finishedWell(code) {
			return fmt.Sprintf("the %s exited %s during the cell: %s", p.Service, code, cell.LastLogLine(p.Service))
		}
	}
	return ""
}

// deaths names the peers and the sim no longer running when the client's time ran out
// ("; the server had exited 137"), so a timeout caused by a dead peer or network says so.
func deaths(cell *topology.Cell, peers []Peer) string {
	var out string
	for _, p := range append([]Peer{{Service: "sim"}}, peers...) {
		state, err := cell.State(context.Background(), p.Service)
		if st, code, _ := strings.Cut(state, " "); err == nil && st != "running" {
			out += fmt.Sprintf("; the %s had exited %s", p.Service, code)
		}
	}
	return out
}

// diedBeforeFence is why the cell fails when a peer that must run exited on its own after the
// client's exit but before the fence stopped it (a server that crashed once it had served every
// file), else "". The engine's events come in order, so once the sim's exit from the fence has
// arrived, every exit before it has too.
func diedBeforeFence(ctx context.Context, cell *topology.Cell, exits *topology.Exits, peers []Peer, fenceAt time.Time) string {
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	_, _ = exits.Wait(wctx, "sim")
	cancel()
	for _, p := range peers {
		if code, ok := exits.ExitedBefore(p.Service, fenceAt); ok && !p.finishedWell(strconv.Itoa(code)) {
			return fmt.Sprintf("the %s exited %d during the cell, before its fence: %s", p.Service, code, cell.LastLogLine(p.Service))
		}
	}
	return ""
}

// judgedExits are the Judged peers' deaths: the one watch saw, and any other that exited on its
// own before the fence (the fence's own stops come after fenceAt).
func judgedExits(cell *topology.Cell, exits *topology.Exits, peers []Peer, seen *PeerExit, fenceAt time.Time) []PeerExit {
	var out []PeerExit
	if seen != nil {
		out = append(out, *seen)
	}
	for _, p := range peers {
		if !p.Judged || (seen != nil && seen.Service == p.Service) {
			continue
		}
		if code, ok := exits.ExitedBefore(p.Service, fenceAt); ok {
			out = append(out, PeerExit{Service: p.Service, Code: code, Words: cell.LastLogLine(p.Service)})
		}
	}
	return out
}

// peerServices are the peers' services: the fence stops them with the client, before the sim.
func peerServices(peers []Peer) []string {
	var out []string
	for _, p := range peers {
		if p.Service != "server" {
			out = append(out, p.Service)
		}
	}
	return out
}

// IsUnsupported reports whether a Layout error means unsupported.
func IsUnsupported(err error) (string, bool) {
	var u Unsupported
	if errors.As(err, &u) {
		return u.Why, true
	}
	return "", false
}
