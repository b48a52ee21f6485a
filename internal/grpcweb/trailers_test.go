package grpcweb

import (
	"errors"
	"net/http"
	"reflect"
	"testing"
)

func TestParseTrailers(t *testing.T) {
	block := "Grpc-Status: 3\r\n" +
		"GRPC-MESSAGE:bad%20thing\r\n" +
		"x-dup: one\r\n" +
		"X-Dup:  two \t\r\n" +
		"x-trace-bin: AAEC/w==\r\n" +
		"\r\n" + // blank lines are skipped
		"x-empty:\n" + // bare LF and an empty value
		"x-last: no terminator"
	got, err := ParseTrailers([]byte(block))
	if err != nil {
		t.Fatal(err)
	}
	want := Metadata{
		{"grpc-status", "3"}, {"grpc-message", "bad%20thing"}, {"x-dup", "one"}, {"x-dup", "two"},
		{"x-trace-bin", "AAEC/w=="}, {"x-empty", ""}, {"x-last", "no terminator"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	if v, ok := got.Get("GRPC-STATUS"); !ok || v != "3" {
		t.Fatalf("Get = %q, %v", v, ok)
	}
	if vs := got.Values("x-dup"); !reflect.DeepEqual(vs, []string{"one", "two"}) {
		t.Fatalf("Values = %q", vs)
	}
}

func TestParseTrailersMalformed(t *testing.T) {
	for _, block := range []string{
		"grpc-status 0\r\n",             // no colon
		": 0\r\n",                       // empty name
		"grpc status: 0\r\n",            // space in name
		"grpc-statüs: 0\r\n",            // non-ASCII name
		"grpc-status: 0\r\nx-a: b\x00c", // NUL in value
		"x-a: b\rc\r\n",                 // bare CR in value
	} {
		if _, err := ParseTrailers([]byte(block)); !errors.Is(err, ErrMalformedTrailers) {
			t.Errorf("%q: err = %v, want ErrMalformedTrailers", block, err)
		}
	}
}

func TestAppendTrailersRoundTrip(t *testing.T) {
	m := Metadata{{"Grpc-Status", "0"}, {"X-Dup", "a"}, {"x-dup", "b"}, {"x-bin", "AQ=="}}
	block := AppendTrailers(nil, m)
	if string(block) != "grpc-status: 0\r\nx-dup: a\r\nx-dup: b\r\nx-bin: AQ==\r\n" {
		t.Fatalf("block %q", block)
	}
	back, err := ParseTrailers(block)
	if err != nil || len(back) != 4 || back[1] != (Field{"x-dup", "a"}) || back[2] != (Field{"x-dup", "b"}) {
		t.Fatalf("round trip: %q, %v", back, err)
	}
}

func TestMetadataFromHeader(t *testing.T) {
	h := http.Header{"X-B": {"1", "2"}, "Grpc-Status": {"0"}, "x-a": {"z"}}
	want := Metadata{{"grpc-status", "0"}, {"x-b", "1"}, {"x-b", "2"}, {"x-a", "z"}}
	if got := MetadataFromHeader(h); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}
