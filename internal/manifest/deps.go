package manifest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
)

var (
	argRE  = regexp.MustCompile(`(?i)^ARG\s+([A-Za-z_][A-Za-z0-9_]*)(?:=(\S+))?`)
	fromRE = regexp.MustCompile(`(?i)^FROM\s+(?:--\S+\s+)*(\S+)`)
	varRE  = regexp.MustCompile(`\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?`)
)

// FromRefs returns the images a Dockerfile's FROM lines name, with ARG defaults substituted and
// references to earlier build stages dropped.
func FromRefs(dockerfile []byte) []string {
	args := map[string]string{}
	stages := map[string]bool{}
	var refs []string
	sc := bufio.NewScanner(bytes.NewReader(dockerfile))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if m := argRE.FindStringSubmatch(line); m != nil {
			if _, set := args[m[1]]; !set {
				args[m[1]] = strings.Trim(m[2], `"'`)
			}
			continue
		}
		m := fromRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		ref := varRE.ReplaceAllStringFunc(m[1], func(v string) string {
			return args[varRE.FindStringSubmatch(v)[1]]
		})
		if !stages[strings.ToLower(ref)] {
			refs = append(refs, ref)
		}
		if f := strings.Fields(line); len(f) >= 4 && strings.EqualFold(f[len(f)-2], "AS") {
			stages[strings.ToLower(f[len(f)-1])] = true
		}
	}
	return refs
}

// Deps maps each image's name to the wirelab images among all that its Dockerfile builds FROM.
func Deps(all []*Manifest) (map[string][]*Manifest, error) {
	byRef := map[string]*Manifest{}
	for _, m := range all {
		byRef[normalizeRef(m.Ref())] = m
	}
	deps := map[string][]*Manifest{}
	for _, m := range all {
		data, err := os.ReadFile(m.DockerfilePath())
		if err != nil {
			return nil, &Error{File: m.File, Field: "build.dockerfile", Msg: err.Error()}
		}
		for _, ref := range FromRefs(data) {
			if dep, ok := byRef[normalizeRef(ref)]; ok && dep != m && !slices.Contains(deps[m.Name], dep) {
				deps[m.Name] = append(deps[m.Name], dep)
			}
		}
	}
	return deps, nil
}

// BuildOrder returns the manifests in an order where every wirelab image comes after the wirelab
// images its Dockerfile builds FROM. want (image names) limits the result to those and their
// dependencies; empty means all.
func BuildOrder(all []*Manifest, want []string) ([]*Manifest, error) {
	byName := map[string]*Manifest{}
	for _, m := range all {
		byName[m.Name] = m
	}
	deps, err := Deps(all)
	if err != nil {
		return nil, err
	}
	if len(want) == 0 {
		for _, m := range all {
			want = append(want, m.Name)
		}
	}
	want = append([]string(nil), want...)
	sort.Strings(want)
	var order []*Manifest
	state := map[string]int{} // 1 visiting, 2 done
	var visit func(m *Manifest, path []string) error
	visit = func(m *Manifest, path []string) error {
		switch state[m.Name] {
		case 1:
			return fmt.Errorf("image dependency cycle: %s", strings.Join(append(path, m.Name), " -> "))
		case 2:
			return nil
		}
		state[m.Name] = 1
		for _, d := range deps[m.Name] {
			if err := visit(d, append(path, m.Name)); err != nil {
				return err
			}
		}
		state[m.Name] = 2
		order = append(order, m)
		return nil
	}
	for _, name := range want {
		m, ok := byName[name]
		if !ok {
			return nil, fmt.Errorf("unknown image %q (see wirelab list)", name)
		}
		if err := visit(m, nil); err != nil {
			return nil, err
		}
	}
	return order, nil
}

func normalizeRef(ref string) string {
	if !strings.Contains(ref[strings.LastIndex(ref, "/")+1:], ":") {
		return ref + ":latest"
	}
	return ref
}
