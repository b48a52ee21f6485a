package matrix

import (
	"context"
	"io"
	"sync"
	"time"
)

// Exec runs one cell and returns its verdict. It must return soon after ctx ends; a result
// returned after that is dropped (the cell has no verdict, --resume runs it again).
type Exec func(ctx context.Context, c Cell) Result

// Pool runs cells, Jobs at a time, journaling each result as it finishes.
type Pool struct {
	Dir      string // the run's folder: its disk must keep room for the next cell
	Jobs     int
	Journal  *Journal
	Progress io.Writer
	Details  string // names a measurement's details in progress lines ("goodput ")
	// Only, when set, is the cells to run (keys, Shard.Pick): the others are another shard's.
	Only map[string]bool
}

// Run runs every cell not already in done, in the given order, writing each result to the
// journal as it finishes. It returns all results, done ones included. A full disk, or a result
// the journal cannot keep, stops the run: that cell and those in flight end as interrupted
// (--resume runs them again), and the error says why.
func (r *Pool) Run(ctx context.Context, cells []Cell, done []Result, exec Exec) ([]Result, error) {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	var journalErr error
	have := map[string]bool{}
	results := append([]Result(nil), done...)
	for _, d := range done {
		have[d.Key()] = true
	}
	var jobs []Cell
	for _, c := range cells {
		k := c.Key()
		if !have[k] && (r.Only == nil || r.Only[k]) {
			jobs = append(jobs, c)
		}
	}
	p := newProgress(r.Progress, len(jobs), len(done))
	p.details = r.Details
	var mu sync.Mutex
	ticker := time.NewTicker(5 * time.Second)
	defer ticker.Stop()
	go func() {
		for now := range ticker.C {
			mu.Lock()
			p.tick(now)
			mu.Unlock()
		}
	}()
	work := make(chan Cell)
	var wg sync.WaitGroup
	for w := 0; w < max(1, r.Jobs); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range work {
				mu.Lock()
				p.started(c.Label())
				mu.Unlock()
				res := exec(ctx, c)
				if ctx.Err() != nil {
					return // an interrupted cell has no verdict; --resume runs it again
				}
				rows := res.Rows()
				err := checkDiskRoom(r.Dir) // a cell that ran out of disk has no verdict
				if err == nil {
					err = r.Journal.Add(rows...)
				}
				if err != nil {
					mu.Lock()
					if journalErr == nil {
						journalErr = err
					}
					mu.Unlock()
					stop()
					return
				}
				mu.Lock()
				results = append(results, rows...)
				p.record(rows[0])
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		select {
		case work <- j:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(work)
	wg.Wait()
	return results, journalErr
}
