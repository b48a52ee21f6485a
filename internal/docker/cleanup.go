package docker

import (
	"context"
	"fmt"
)

// Removed counts what a cleanup removed.
type Removed struct{ Containers, Networks, Volumes int }

func (r Removed) String() string {
	return fmt.Sprintf("%d containers, %d networks, %d volumes", r.Containers, r.Networks, r.Volumes)
}

// Add adds o's counts to r.
func (r *Removed) Add(o Removed) {
	r.Containers += o.Containers
	r.Networks += o.Networks
	r.Volumes += o.Volumes
}

// Empty reports whether nothing was found.
func (r Removed) Empty() bool { return r == Removed{} }

// RunSelector is the label filter for one run's resources, or for every run's when id is "".
func RunSelector(id string) string {
	if id == "" {
		return LabelRun
	}
	return LabelRun + "=" + id
}

// Leftovers lists what still carries the label selector (containers, networks, volumes).
func (c *CLI) Leftovers(ctx context.Context, selector string) (Removed, []string, error) {
	var r Removed
	var names []string
	for _, kind := range []struct {
		args  []string
		count *int
	}{
		{[]string{"ps", "-a", "--format", "container {{.Names}}"}, &r.Containers},
		{[]string{"network", "ls", "--format", "network {{.Name}}"}, &r.Networks},
		{[]string{"volume", "ls", "--format", "volume {{.Name}}"}, &r.Volumes},
	} {
		out, err := c.Run(ctx, append(kind.args, "--filter", "label="+selector)...)
		if err != nil {
			return r, names, err
		}
		l := Lines(out)
		*kind.count = len(l)
		names = append(names, l...)
	}
	return r, names, nil
}

// RemoveLabelled removes every container, then network, then volume carrying the label selector,
// and nothing else. Containers go first: a network in use cannot be removed.
func (c *CLI) RemoveLabelled(ctx context.Context, selector string) (Removed, error) {
	var r Removed
	filter := "label=" + selector
	steps := []struct {
		list, remove []string
		count        *int
	}{
		{[]string{"ps", "-aq", "--filter", filter}, []string{"rm", "-f", "-v"}, &r.Containers},
		{[]string{"network", "ls", "-q", "--filter", filter}, []string{"network", "rm"}, &r.Networks},
		{[]string{"volume", "ls", "-q", "--filter", filter}, []string{"volume", "rm", "-f"}, &r.Volumes},
	}
	for _, s := range steps {
		out, err := c.Run(ctx, s.list...)
		if err != nil {
			return r, err
		}
		ids := Lines(out)
		if len(ids) == 0 {
			continue
		}
		if _, err := c.Run(ctx, append(s.remove, ids...)...); err != nil {
			return r, err
		}
		*s.count = len(ids)
	}
	return r, nil
}
