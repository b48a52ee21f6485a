package probe

import (
	"strings"
	"testing"

	"golang.org/x/net/http2/hpack"
)

func decode(t *testing.T, block []byte) []hpack.HeaderField {
	t.Helper()
	fields, err := hpack.NewDecoder(4096, nil).DecodeFull(block)
	if err != nil {
		t.Fatalf("hpack: %v", err)
	}
	return fields
}

func TestRequestBlock(t *testing.T) {
	fields := decode(t, requestBlock("GET", "server", "/1m.bin", "X-Up", "1"))
	var got []string
	for _, f := range fields {
		if f.Sensitive {
			t.Errorf("%s: never-indexed, want without indexing", f.Name)
		}
		got = append(got, f.Name+"="+f.Value)
	}
	want := ":method=GET :scheme=https :authority=server :path=/1m.bin user-agent=wirelab-h2probe X-Up=1"
	if strings.Join(got, " ") != want {
		t.Errorf("got %v, want %s", got, want)
	}
}

func TestFloodFieldFillsTheFrame(t *testing.T) {
	for _, size := range []int{64, 145, 146, 16383, 16384} {
		b := floodField(size)
		if len(b) != size && len(b) != size-1 {
			t.Errorf("floodField(%d) is %d bytes", size, len(b))
		}
		if f := decode(t, b); len(f) != 1 || f[0].Name != "x-wirelab-flood" || len(f[0].Value) < size-25 {
			t.Errorf("floodField(%d) decodes to %d fields", size, len(f))
		}
	}
}

func TestPrefixInt(t *testing.T) { // RFC 7541 C.1.1-C.1.3, with 7- and 5-bit prefixes
	for _, c := range []struct {
		n    uint
		v    uint64
		want string
	}{{5, 10, "\x0a"}, {5, 1337, "\x1f\x9a\x0a"}, {7, 126, "\x7e"}, {7, 127, "\x7f\x00"}, {7, 16364, "\x7f\xed\x7e"}} {
		if got := string(appendPrefixInt(nil, c.n, c.v)); got != c.want {
			t.Errorf("appendPrefixInt(%d, %d) = %q, want %q", c.n, c.v, got, c.want)
		}
	}
}
