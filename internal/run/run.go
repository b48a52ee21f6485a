// Package run holds what every wirelab run shares: its id, output folder, the label on all it
// creates, and the guarantee that Ctrl-C / SIGTERM removes exactly those resources.
package run

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"sync"
	"syscall"
	"time"

	"github.com/wirelab/wirelab/internal/docker"
)

var idRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,47}$`)

// ValidID reports whether id can name a run (and, embedded, a compose project).
func ValidID(id string) bool { return idRE.MatchString(id) }

// NewID makes a sortable, unique run id such as 20261121-134501-3fa2.
func NewID(now time.Time) string {
	b := make([]byte, 2)
	_, _ = rand.Read(b)
	return now.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b)
}

// Options are the flags every run-creating subcommand accepts.
type Options struct {
	Out   string // output root (default out)
	Jobs  int    // parallel cells
	ID    string // run id (default NewID)
	Keep  bool   // keep containers and networks after the run, for debugging
	Suite string
	// NoContainers: the run starts none (an in-process suite), so Finish has nothing to remove.
	NoContainers bool
}

// Run is one invocation that creates labelled docker resources.
type Run struct {
	Options
	Dir    string // Out/<suite>/<id>
	Docker *docker.CLI

	mu          sync.Mutex
	interrupted os.Signal
	stop        func()
}

// Labels returns the label arguments (`--label k=v`) every resource of the run must carry.
func (r *Run) Labels() []string {
	return []string{"--label", docker.LabelRun + "=" + r.ID, "--label", docker.LabelSuite + "=" + r.Suite}
}

// Env is the environment compose files read to label and name what they create.
func (r *Run) Env() []string {
	return []string{"WIRELAB_RUN=" + r.ID, "WIRELAB_SUITE=" + r.Suite}
}

// Start creates the run's folder and returns a context that is cancelled on SIGINT/SIGTERM.
// The caller must defer Finish.
func Start(parent context.Context, opts Options, d *docker.CLI) (*Run, context.Context, error) {
	// Absolute: run folders are bind-mounted into containers, and compose reads a relative
	// path as the name of a volume.
	out, err := filepath.Abs(opts.Out)
	if err != nil {
		return nil, nil, err
	}
	opts.Out = out
	r := &Run{Options: opts, Docker: d}
	r.Dir = filepath.Join(opts.Out, opts.Suite, opts.ID)
	if err := os.MkdirAll(r.Dir, 0o755); err != nil {
		return nil, nil, err
	}
	latest := filepath.Join(opts.Out, opts.Suite, "latest")
	_ = os.Remove(latest)
	_ = os.Symlink(opts.ID, latest)

	ctx, cancel := context.WithCancel(parent)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig, ok := <-sigs
		if !ok {
			return
		}
		r.mu.Lock()
		r.interrupted = sig
		r.mu.Unlock()
		fmt.Fprintf(os.Stderr, "\nwirelab: %v: stopping run %s and removing its containers and networks\n", sig, r.ID)
		cancel()
		if _, ok := <-sigs; ok { // a second signal: give up cleaning, but say what is left
			fmt.Fprintf(os.Stderr, "wirelab: cleanup aborted; remove leftovers with: wirelab clean --run-id %s\n", r.ID)
			os.Exit(130)
		}
	}()
	r.stop = func() { signal.Stop(sigs); close(sigs); cancel() }
	return r, ctx, nil
}

// Interrupted returns the signal that stopped the run, or nil.
func (r *Run) Interrupted() os.Signal {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.interrupted
}

// Finish removes the run's labelled resources (unless --keep and not interrupted) and stops
// listening for signals. It uses its own context: the run's may already be cancelled.
func (r *Run) Finish() error {
	defer r.stop()
	if r.NoContainers {
		return nil
	}
	if r.Keep && r.Interrupted() == nil {
		fmt.Fprintf(os.Stderr, "wirelab: --keep: containers and networks of run %s left running; remove them with: wirelab clean --run-id %s\n", r.ID, r.ID)
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// Sweep until a pass finds nothing: a create request that was in flight when the run was
	// interrupted can still land after the first pass.
	var removed docker.Removed
	for pass := 0; pass < 5; pass++ {
		got, err := r.Docker.RemoveLabelled(ctx, docker.RunSelector(r.ID))
		if err != nil {
			return fmt.Errorf("cleanup of run %s: %w (retry: wirelab clean --run-id %s)", r.ID, err, r.ID)
		}
		if got.Empty() {
			break
		}
		removed.Add(got)
		time.Sleep(200 * time.Millisecond)
	}
	if r.Interrupted() != nil {
		fmt.Fprintf(os.Stderr, "wirelab: removed %s of run %s\n", removed, r.ID)
	}
	return nil
}
