package qif

import (
	"bytes"
	"reflect"
	"testing"
)

func TestParseQIF(t *testing.T) {
	got, err := ParseQIF([]byte("# a comment\n:method\tGET\n:path\t/\ncookie\ta=b\tc\n\n\nx\t\n"))
	want := [][]Field{{{":method", "GET"}, {":path", "/"}, {"cookie", "a=b\tc"}}, {{"x", ""}}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, %v", got, err)
	}
	if !reflect.DeepEqual(mustParse(t, FormatQIF(want)), want) {
		t.Fatal("FormatQIF does not round-trip")
	}
	if _, err := ParseQIF([]byte(":method\tGET\nno tab here\n")); err == nil || err.Error() != "line 2: want name<TAB>value" {
		t.Fatalf("bad line: %v", err)
	}
}

func mustParse(t *testing.T, b []byte) [][]Field {
	t.Helper()
	l, err := ParseQIF(b)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestRecords(t *testing.T) {
	in := []Record{{0, []byte{0x3f, 0xe1, 0x1f}}, {4, []byte{0, 0, 0xd1}}, {8, nil}}
	var enc []byte
	for _, r := range in {
		enc = AppendRecord(enc, r)
	}
	got, err := ReadRecords(enc)
	if err != nil || len(got) != 3 || got[1].Stream != 4 || !bytes.Equal(got[1].Data, in[1].Data) || len(got[2].Data) != 0 {
		t.Fatalf("got %+v, %v", got, err)
	}
	// Truncated inside the last record's data: the complete ones come back with an error.
	got, err = ReadRecords(enc[:len(enc)-13])
	if err == nil || len(got) != 1 {
		t.Fatalf("truncated: %d records, %v", len(got), err)
	}
	if _, err := ReadRecords(enc[:5]); err == nil {
		t.Fatal("5 bytes: want an error")
	}
}

// FuzzRecords: any input splits without panicking, and re-encoding the records it yields gives
// back exactly the bytes they came from.
func FuzzRecords(f *testing.F) {
	f.Add(AppendRecord(AppendRecord(nil, Record{0, []byte{0x3f, 0xe1}}), Record{4, []byte{0, 0, 0xd1}}))
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, _ := ReadRecords(data)
		var enc []byte
		for _, r := range recs {
			enc = AppendRecord(enc, r)
		}
		if !bytes.HasPrefix(data, enc) {
			t.Fatalf("re-encoded records are not a prefix of the input")
		}
	})
}

// FuzzQIF: any text parses or fails with a line number, never panics; what parses formats and
// parses back to the same lists.
func FuzzQIF(f *testing.F) {
	f.Add([]byte(":method\tGET\n:authority\texample.com\n\n:status\t200\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lists, err := ParseQIF(data)
		if err != nil {
			return
		}
		again, err := ParseQIF(FormatQIF(lists))
		if err != nil || !reflect.DeepEqual(again, lists) {
			t.Fatalf("round trip: %q -> %q (%v)", lists, again, err)
		}
	})
}
