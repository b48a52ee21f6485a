package profile

import "reflect"

// merge copies every field set in src over dst (both pointers to the same
// struct type), descending into sections so that e.g. a child's
// blackhole.off keeps the parent's blackhole.on. Sections in dst are always
// freshly allocated, so merging never mutates src.
func merge[T any](dst, src *T) {
	if src == nil {
		return
	}
	mergeValue(reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem())
}

func mergeValue(dst, src reflect.Value) {
	for i := range src.NumField() {
		sf, df := src.Field(i), dst.Field(i)
		if sf.IsNil() {
			continue
		}
		if sf.Type().Implements(scalarType) || sf.Kind() != reflect.Pointer {
			df.Set(sf) // leaves are never mutated after parsing: sharing is safe
			continue
		}
		if df.IsNil() {
			df.Set(reflect.New(sf.Type().Elem()))
		}
		mergeValue(df.Elem(), sf.Elem())
	}
}

// or returns *p, or def when p is unset.
func or[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}
