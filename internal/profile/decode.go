package profile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"
)

// yaml.v3's KnownFields(true) rejects unknown keys but its errors carry a
// line number, not the field path we promise, and it cannot tell "unset" from
// a zero value. So we parse to a yaml.Node and walk it against the schema
// ourselves: every key must be a field of the target struct, every leaf
// parses through its scalar type, and errors name the full path.

var scalarType = reflect.TypeFor[scalar]()

type decoder struct{ file string }

func (d *decoder) errf(path, format string, args ...any) *Error {
	return &Error{File: d.file, Field: path, Msg: fmt.Sprintf(format, args...)}
}

// parseFile decodes one YAML document into the raw schema.
func parseFile(file string, data []byte) (*rawFile, error) {
	d := &decoder{file: file}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true) // no effect on yaml.Node; the walk below is the strict part
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, d.errf("", "empty file: want a top-level profiles: mapping")
		}
		return nil, d.errf("", "%s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, d.errf("", "want exactly one YAML document")
	}
	var f rawFile
	if err := d.decode(doc.Content[0], reflect.ValueOf(&f).Elem(), ""); err != nil {
		return nil, err
	}
	if len(f.Profiles) == 0 {
		return nil, d.errf("profiles", "no profiles defined")
	}
	return &f, nil
}

// decode fills v from n; path names v for errors.
func (d *decoder) decode(n *yaml.Node, v reflect.Value, path string) error {
	n, err := d.deref(n, path)
	if err != nil {
		return err
	}
	null := n.Kind == yaml.ScalarNode && n.Tag == "!!null"
	if v.Type().Implements(scalarType) {
		return d.leaf(n, v, path, null)
	}
	if null { // an empty section is allowed and sets nothing
		if v.Kind() == reflect.Pointer && v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		return nil
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		return d.decode(n, v.Elem(), path)
	case reflect.Struct:
		return d.mapping(n, path, func(key string, val *yaml.Node, kpath string) error {
			f, ok := field(v, key)
			if !ok {
				return d.errf(kpath, "unknown key (valid: %s)", strings.Join(keys(v.Type()), ", "))
			}
			return d.decode(val, f, kpath)
		})
	case reflect.Map:
		if v.IsNil() {
			v.Set(reflect.MakeMap(v.Type()))
		}
		return d.mapping(n, path, func(key string, val *yaml.Node, kpath string) error {
			e := reflect.New(v.Type().Elem()).Elem()
			if err := d.decode(val, e, kpath); err != nil {
				return err
			}
			v.SetMapIndex(reflect.ValueOf(key), e)
			return nil
		})
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			return d.errf(path, "want a list, got %s", kindName(n))
		}
		s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
		for i, c := range n.Content {
			if err := d.decode(c, s.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		v.Set(s)
		return nil
	}
	return d.errf(path, "internal: cannot decode into %s", v.Type())
}

// leaf parses a scalar (or, for droplists, a list of scalars) into v.
func (d *decoder) leaf(n *yaml.Node, v reflect.Value, path string, null bool) error {
	if null {
		return d.errf(path, "missing value")
	}
	s := n.Value
	switch {
	case n.Kind == yaml.SequenceNode && v.Type() == reflect.TypeFor[*dropIndices]():
		items := make([]string, len(n.Content))
		for i, c := range n.Content {
			c, err := d.deref(c, path)
			if err != nil {
				return err
			}
			if c.Kind != yaml.ScalarNode {
				return d.errf(fmt.Sprintf("%s[%d]", path, i), "want a packet index, got %s", kindName(c))
			}
			items[i] = c.Value
		}
		s = strings.Join(items, ",")
	case n.Kind != yaml.ScalarNode:
		return d.errf(path, "want a single value, got %s", kindName(n))
	}
	nv := reflect.New(v.Type().Elem())
	if err := nv.Interface().(scalar).set(s); err != nil {
		return d.errf(path, "%v", err)
	}
	v.Set(nv)
	return nil
}

// mapping calls fn for each key of a mapping node, rejecting duplicates.
func (d *decoder) mapping(n *yaml.Node, path string, fn func(key string, val *yaml.Node, kpath string) error) error {
	if n.Kind != yaml.MappingNode {
		return d.errf(path, "want a mapping, got %s", kindName(n))
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, err := d.deref(n.Content[i], path)
		if err != nil {
			return err
		}
		if k.Kind != yaml.ScalarNode {
			return d.errf(path, "keys must be plain strings, got %s", kindName(k))
		}
		kpath := join(path, k.Value)
		if k.Value == "<<" {
			return d.errf(kpath, "YAML merge keys are not supported; use extends")
		}
		if seen[k.Value] {
			return d.errf(kpath, "duplicate key")
		}
		seen[k.Value] = true
		if err := fn(k.Value, n.Content[i+1], kpath); err != nil {
			return err
		}
	}
	return nil
}

// deref follows YAML aliases (*anchor) to the node they name.
func (d *decoder) deref(n *yaml.Node, path string) (*yaml.Node, error) {
	for hops := 0; n != nil && n.Kind == yaml.AliasNode; hops++ {
		if hops > 100 {
			return nil, d.errf(path, "alias chain too long")
		}
		n = n.Alias
	}
	if n == nil {
		return nil, d.errf(path, "broken alias")
	}
	return n, nil
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return fmt.Sprintf("the value %q", n.Value)
	}
	return "nothing"
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// field returns the struct field of v whose yaml tag is key.
func field(v reflect.Value, key string) (reflect.Value, bool) {
	t := v.Type()
	for i := range t.NumField() {
		if t.Field(i).Tag.Get("yaml") == key {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}

// keys lists the yaml keys of struct type t, for "valid: ..." hints.
func keys(t reflect.Type) []string {
	var ks []string
	for i := range t.NumField() {
		ks = append(ks, t.Field(i).Tag.Get("yaml"))
	}
	return ks
}
