package images

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/manifest"
)

// graph is a build graph of the shape of images/: base under everything, endpoint under the
// endpoints, some tools straight on base. edges: "name:dep,dep".
func graph(edges ...string) ([]*manifest.Manifest, map[string][]*manifest.Manifest) {
	byName := map[string]*manifest.Manifest{}
	var order []*manifest.Manifest
	deps := map[string][]*manifest.Manifest{}
	for _, e := range edges {
		name, on, _ := strings.Cut(e, ":")
		m := &manifest.Manifest{Name: name}
		byName[name], order = m, append(order, m)
		for _, d := range strings.Split(on, ",") {
			if d != "" {
				deps[name] = append(deps[name], byName[d])
			}
		}
	}
	return order, deps
}

// fakeBuilds is a build function the test drives: each build announces its start and waits to
// be told its outcome, so the test sees exactly which builds run together.
type fakeBuilds struct {
	t       *testing.T
	deps    map[string][]*manifest.Manifest
	started chan string
	outcome map[string]chan error

	mu       sync.Mutex
	running  []string // in start order
	built    map[string]bool
	peak     int
	violated []string
}

func newFake(t *testing.T, order []*manifest.Manifest, deps map[string][]*manifest.Manifest) *fakeBuilds {
	f := &fakeBuilds{t: t, deps: deps, started: make(chan string, len(order)), outcome: map[string]chan error{}, built: map[string]bool{}}
	for _, m := range order {
		f.outcome[m.Name] = make(chan error, 1)
	}
	return f
}

func (f *fakeBuilds) build(ctx context.Context, m *manifest.Manifest) error {
	f.mu.Lock()
	for _, d := range f.deps[m.Name] {
		if !f.built[d.Name] {
			f.violated = append(f.violated, m.Name+" before "+d.Name)
		}
	}
	f.running = append(f.running, m.Name)
	f.peak = max(f.peak, len(f.running))
	f.mu.Unlock()
	f.started <- m.Name
	err := <-f.outcome[m.Name]
	f.mu.Lock()
	f.running = slices.DeleteFunc(f.running, func(n string) bool { return n == m.Name })
	if err == nil {
		f.built[m.Name] = true
	}
	f.mu.Unlock()
	return err
}

// await returns the next build to start; a scheduler that starts none fails the test.
func (f *fakeBuilds) await() string {
	f.t.Helper()
	select {
	case name := <-f.started:
		return name
	case <-time.After(10 * time.Second):
		f.t.Fatal("no build started")
		return ""
	}
}

// result is what schedule returned; a scheduler that never returns fails the test.
func result(t *testing.T, res <-chan error) error {
	t.Helper()
	select {
	case err := <-res:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("schedule did not return")
		return nil
	}
}

// drive runs order through schedule with jobs at a time and, at every step, expects the
// scheduler to have filled the free slots with ready builds before it lets the oldest finish.
func drive(t *testing.T, order []*manifest.Manifest, deps map[string][]*manifest.Manifest, jobs int) *fakeBuilds {
	f := newFake(t, order, deps)
	res := make(chan error, 1)
	go func() { res <- schedule(context.Background(), order, deps, jobs, f.build) }()
	done, started := map[string]bool{}, map[string]bool{}
	var running []string
	for len(done) < len(order) {
		ready := 0
		for _, m := range order {
			if !started[m.Name] && !slices.ContainsFunc(deps[m.Name], func(d *manifest.Manifest) bool { return !done[d.Name] }) {
				ready++
			}
		}
		for want := min(jobs, len(running)+ready); len(running) < want; {
			name := f.await()
			started[name], running = true, append(running, name)
		}
		done[running[0]] = true
		f.outcome[running[0]] <- nil
		running = running[1:]
	}
	if err := result(t, res); err != nil {
		t.Fatal(err)
	}
	if len(f.violated) > 0 {
		t.Fatalf("built before their dependencies: %v", f.violated)
	}
	return f
}

func imagesGraph() ([]*manifest.Manifest, map[string][]*manifest.Manifest) {
	return graph("base:", "endpoint:base", "aioquic:endpoint", "curl:endpoint", "nginx:endpoint",
		"ngtcp2:base,endpoint", "sim:base", "tshark:base")
}

func TestScheduleFillsSlotsAfterDependencies(t *testing.T) {
	order, deps := imagesGraph()
	for _, jobs := range []int{2, 3} {
		if f := drive(t, order, deps, jobs); f.peak != jobs {
			t.Errorf("-j %d: at most %d builds ran together", jobs, f.peak)
		}
	}
}

// One at a time is today's sequential build: exactly the given order.
func TestScheduleOneAtATimeKeepsOrder(t *testing.T) {
	order, deps := imagesGraph()
	f := newFake(t, order, deps)
	for _, m := range order {
		f.outcome[m.Name] <- nil
	}
	if err := schedule(context.Background(), order, deps, 1, f.build); err != nil {
		t.Fatal(err)
	}
	close(f.started)
	var got []string
	for n := range f.started {
		got = append(got, n)
	}
	if strings.Join(got, " ") != strings.Join(names(order), " ") || f.peak != 1 {
		t.Fatalf("order %v (peak %d), want %v", got, f.peak, names(order))
	}
}

// A failure starts nothing more: with one build at a time, the ready images after it stay unbuilt.
func TestScheduleStopsAfterFailure(t *testing.T) {
	order, deps := graph("base:", "endpoint:base", "sim:base", "tshark:base")
	f := newFake(t, order, deps)
	res := make(chan error, 1)
	go func() { res <- schedule(context.Background(), order, deps, 1, f.build) }()
	f.await()
	f.outcome["base"] <- nil
	if n := f.await(); n != "endpoint" {
		t.Fatalf("second build %s", n)
	}
	boom := errors.New("building wirelab/endpoint:latest failed: exit status 1; log: out/images/endpoint.log")
	f.outcome["endpoint"] <- boom
	if err := result(t, res); err != boom {
		t.Fatalf("schedule returned %v", err)
	}
	close(f.started)
	for n := range f.started {
		t.Errorf("%s started after the failure", n)
	}
}

// A failure lets the build running beside it finish, never starts the failed image's
// dependents, and is what schedule returns.
func TestScheduleFinishesRunningBuildsAfterFailure(t *testing.T) {
	order, deps := graph("base:", "endpoint:base", "sim:base", "tshark:base", "nginx:endpoint")
	f := newFake(t, order, deps)
	res := make(chan error, 1)
	go func() { res <- schedule(context.Background(), order, deps, 2, f.build) }()
	f.await()
	f.outcome["base"] <- nil
	if two := []string{f.await(), f.await()}; !slices.Contains(two, "endpoint") || !slices.Contains(two, "sim") {
		t.Fatalf("after base: %v, want endpoint and sim (first in order)", two)
	}
	f.outcome["sim"] <- nil
	if n := f.await(); n != "tshark" {
		t.Fatalf("after sim: %s", n)
	}
	boom := errors.New("building wirelab/endpoint:latest failed")
	f.outcome["endpoint"] <- boom
	f.outcome["tshark"] <- nil
	if err := result(t, res); err != boom {
		t.Fatalf("schedule returned %v", err)
	}
	close(f.started)
	for n := range f.started {
		t.Errorf("%s started after the failure", n)
	}
	if !f.built["tshark"] {
		t.Error("the build running beside the failure did not finish")
	}
}

func TestScheduleStopsWhenCancelled(t *testing.T) {
	order, deps := graph("base:", "endpoint:base", "sim:base")
	f := newFake(t, order, deps)
	ctx, cancel := context.WithCancel(context.Background())
	res := make(chan error, 1)
	go func() { res <- schedule(ctx, order, deps, 2, f.build) }()
	f.await()
	cancel()
	f.outcome["base"] <- nil
	if err := result(t, res); !errors.Is(err, context.Canceled) {
		t.Fatalf("schedule returned %v", err)
	}
	close(f.started)
	for n := range f.started {
		t.Errorf("%s started after the cancel", n)
	}
}

func TestScheduleReportsImagesNeverReady(t *testing.T) {
	order, deps := graph("a:", "b:")
	deps["a"], deps["b"] = []*manifest.Manifest{order[1]}, []*manifest.Manifest{order[0]}
	err := schedule(context.Background(), order, deps, 2, func(context.Context, *manifest.Manifest) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "a, b") {
		t.Fatalf("cycle: %v", err)
	}
}

// Concurrent writes through a syncWriter and lineWriters arrive as whole lines.
func TestProgressLinesStayWhole(t *testing.T) {
	var sb strings.Builder
	sw := &syncWriter{w: &sb}
	var wg sync.WaitGroup
	for _, word := range []string{"alpha", "beta", "gamma"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lw := &lineWriter{w: sw}
			for range 200 {
				for _, c := range word + " line\n" { // a byte at a time: the worst chunking
					_, _ = lw.Write([]byte(string(c)))
				}
			}
			_, _ = lw.Write([]byte(word + " unfinished"))
			lw.Flush()
		}()
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(sb.String(), "\n"), "\n")
	if len(lines) != 3*201 {
		t.Fatalf("%d lines", len(lines))
	}
	for _, l := range lines {
		w, rest, _ := strings.Cut(l, " ")
		if !slices.Contains([]string{"alpha", "beta", "gamma"}, w) || (rest != "line" && rest != "unfinished") {
			t.Fatalf("interleaved line %q", l)
		}
	}
}

func names(ms []*manifest.Manifest) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Name)
	}
	return out
}
