package profile

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// FuzzParseProfile: no input may panic the parser, and every failure must be
// a one-line *Error.
func FuzzParseProfile(f *testing.F) {
	if data, err := os.ReadFile(bundled); err == nil {
		f.Add(data)
	}
	f.Add([]byte(good))
	f.Add([]byte("profiles: {x: {both: {delay: -5ms, droplist: [1, *a]}}}"))
	f.Add([]byte("profiles: {a: &x {both: {loss: 1%}}, b: *x, c: {extends: c}}"))
	f.Add([]byte("profiles: {h: {schedule: [{at: 0s, profile: 'h:both.loss=1'}]}}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		pf, err := Parse(file, data)
		if err != nil {
			checkFuzzError(t, err)
			return
		}
		for _, n := range pf.Names() {
			r, err := pf.Resolve(n)
			if err != nil {
				t.Fatalf("%s validated at load but does not resolve: %v", n, err)
			}
			if _, err := r.Emulator(1); err != nil {
				t.Fatalf("%s resolved to settings the engine rejects: %v", n, err)
			}
		}
	})
}

// FuzzResolveReference: no reference may panic Resolve against the bundled
// file, and what resolves must build an engine.
func FuzzResolveReference(f *testing.F) {
	pf, err := LoadFile(bundled)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"lte", "drop-rate:rate_to_client=5:burst_to_client=3", "blackhole:on=1s:direction=toclient",
		"rebind-addr:rebind-port=false", "droplist:drops_to_client=1,3", "handover:both.loss=1%", "x::=:", "lte:both.rate=1e3bit"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, ref string) {
		r, err := pf.Resolve(ref)
		if err != nil {
			checkFuzzError(t, err)
			return
		}
		if _, err := r.Emulator(1); err != nil {
			t.Fatalf("%q resolved to settings the engine rejects: %v", ref, err)
		}
	})
}

func checkFuzzError(t *testing.T, err error) {
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("not an *Error: %T %v", err, err)
	}
	if strings.ContainsAny(e.Error(), "\r\n") {
		t.Fatalf("multi-line error %q", e.Error())
	}
}
