package images

import (
	"context"
	"fmt"
	"strings"

	"github.com/wirelab/wirelab/internal/manifest"
)

// schedule calls build for every manifest of order, at most jobs at a time, each once the images
// it builds FROM (deps, where they are in order) have been built; among the ready ones it starts
// them in order. After a failure, or once ctx is cancelled, it starts nothing more, waits for the
// builds running and returns the first failure.
func schedule(ctx context.Context, order []*manifest.Manifest, deps map[string][]*manifest.Manifest, jobs int,
	build func(context.Context, *manifest.Manifest) error) error {
	jobs = max(jobs, 1)
	in := map[string]bool{}
	for _, m := range order {
		in[m.Name] = true
	}
	waiting := map[string]int{} // name -> its dependencies not built yet
	dependents := map[string][]string{}
	for _, m := range order {
		for _, d := range deps[m.Name] {
			if in[d.Name] {
				waiting[m.Name]++
				dependents[d.Name] = append(dependents[d.Name], m.Name)
			}
		}
	}
	type outcome struct {
		m   *manifest.Manifest
		err error
	}
	finished := make(chan outcome)
	started, running := map[string]bool{}, 0
	var first error
	for {
		for _, m := range order {
			if first != nil || ctx.Err() != nil || running == jobs {
				break
			}
			if started[m.Name] || waiting[m.Name] > 0 {
				continue
			}
			started[m.Name] = true
			running++
			go func() { finished <- outcome{m, build(ctx, m)} }()
		}
		if running == 0 {
			break
		}
		o := <-finished
		running--
		if o.err != nil {
			if first == nil {
				first = o.err
			}
			continue
		}
		for _, name := range dependents[o.m.Name] {
			waiting[name]--
		}
	}
	switch {
	case first != nil:
		return first
	case ctx.Err() != nil:
		return ctx.Err()
	case len(started) < len(order):
		var stuck []string
		for _, m := range order {
			if !started[m.Name] {
				stuck = append(stuck, m.Name)
			}
		}
		return fmt.Errorf("images never ready (a dependency cycle?): %s", strings.Join(stuck, ", "))
	}
	return nil
}
