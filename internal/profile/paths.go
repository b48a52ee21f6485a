package profile

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// setPath sets the leaf named by a dotted override path (e.g.
// "to_client.blackhole.on") in p from its string form.
func setPath(p *rawProfile, path, value string) error {
	leaf, err := walkPath(p, path)
	if err != nil {
		return err
	}
	nv := reflect.New(leaf.Type().Elem())
	if err := nv.Interface().(scalar).set(value); err != nil {
		return err
	}
	leaf.Set(nv)
	return nil
}

// checkPath reports whether path names an overridable leaf.
func checkPath(path string) error {
	_, err := walkPath(&rawProfile{}, path)
	return err
}

// walkPath finds (allocating sections on the way) the leaf field for path.
func walkPath(p *rawProfile, path string) (reflect.Value, error) {
	parts := strings.Split(path, ".")
	if !slices.Contains(overrideRoots, parts[0]) {
		return reflect.Value{}, fmt.Errorf("cannot override %q (overridable: %s)", parts[0], strings.Join(overrideRoots, ", "))
	}
	v := reflect.ValueOf(p).Elem()
	for i, part := range parts {
		f, ok := field(v, part)
		if !ok {
			return reflect.Value{}, fmt.Errorf("unknown key %q in %q (valid: %s)", part, path, strings.Join(keys(v.Type()), ", "))
		}
		last := i == len(parts)-1
		isLeaf := f.Type().Implements(scalarType)
		switch {
		case last && isLeaf:
			return f, nil
		case last:
			return reflect.Value{}, fmt.Errorf("%q is a section; name one of its keys (%s)", path, strings.Join(keys(f.Type().Elem()), ", "))
		case isLeaf:
			return reflect.Value{}, fmt.Errorf("%q is a value, not a section", strings.Join(parts[:i+1], "."))
		}
		if f.IsNil() {
			f.Set(reflect.New(f.Type().Elem()))
		}
		v = f.Elem()
	}
	panic("unreachable")
}
