package fuzzcov

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
)

// readJSON decodes path into v; a decoding error names the file and, for a value of the wrong
// type, the field, so a corrupted stats.json or summary.json is easy to find.
func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	err = json.Unmarshal(data, v)
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &syn):
		return fmt.Errorf("%s: invalid JSON at byte %d: %v", path, syn.Offset, syn)
	case errors.As(err, &typ):
		// typ.Field leaves out map keys (targets.gate.percent); the offset finds the full path.
		field := jsonPath(data, typ.Offset)
		if field == "" {
			field = typ.Field
		}
		if field == "" {
			return fmt.Errorf("%s: got a JSON %s, want %s", path, typ.Value, kindName(typ.Type))
		}
		return fmt.Errorf("%s: field %s: got a JSON %s, want %s", path, field, typ.Value, kindName(typ.Type))
	}
	return fmt.Errorf("%s: %v", path, err)
}

// jsonPath returns the path (a.b[2].c) of the value that ends at byte offset in data, or "".
func jsonPath(data []byte, offset int64) string {
	type frame struct {
		obj, wantKey bool
		key          string
		idx          int
	}
	var st []frame
	path := func() string {
		var b strings.Builder
		for _, f := range st {
			if f.obj {
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(f.key)
			} else {
				fmt.Fprintf(&b, "[%d]", f.idx)
			}
		}
		return b.String()
	}
	// A value ends: the enclosing object expects a key next.
	done := func() {
		if n := len(st); n > 0 && st[n-1].obj {
			st[n-1].wantKey = true
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		d, isDelim := tok.(json.Delim)
		if isDelim && (d == '}' || d == ']') {
			st = st[:len(st)-1]
			done()
			continue
		}
		if n := len(st); n > 0 && st[n-1].wantKey {
			st[n-1].key, st[n-1].wantKey = tok.(string), false
			continue
		}
		if n := len(st); n > 0 && !st[n-1].obj {
			st[n-1].idx++
		}
		if dec.InputOffset() >= offset {
			return path()
		}
		if isDelim {
			st = append(st, frame{obj: d == '{', wantKey: d == '{', idx: -1})
			continue
		}
		done()
	}
}

// kindName describes a Go type in JSON's terms.
func kindName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	}
	return "an object"
}

// missingField is the error for a required field that is absent or empty.
func missingField(path, field string) error {
	return fmt.Errorf("%s: field %s: missing", path, field)
}
