package grpcweb

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// chunkedBody is a multi-chunk grpc-web-text body: each frame encoded as its own padded chunk, so
// '=' padding appears mid-body (chunk lengths 1, 2 and 0 mod 3 cover "==", "=" and none).
func chunkedBody() (encoded, decoded []byte) {
	for _, msg := range []string{"a", "bc", "def", "ghij", "", "klmnopq"} {
		frame := AppendFrame(nil, 0, []byte(msg))
		for _, part := range [][]byte{frame[:1], frame[1:]} { // split frames too: more padding
			encoded = AppendText(encoded, part)
			decoded = append(decoded, part...)
		}
	}
	return encoded, decoded
}

// splitReader returns a, then b, one Read each.
func splitReader(body []byte, at int) io.Reader {
	return io.MultiReader(bytes.NewReader(body[:at]), bytes.NewReader(body[at:]))
}

func TestTextDecoderEverySplit(t *testing.T) {
	encoded, decoded := chunkedBody()
	if !bytes.Contains(encoded[:len(encoded)-1], []byte("=")) {
		t.Fatal("test body has no mid-body padding")
	}
	for at := 0; at <= len(encoded); at++ {
		got, err := io.ReadAll(NewTextDecoder(splitReader(encoded, at)))
		if err != nil || !bytes.Equal(got, decoded) {
			t.Fatalf("split at %d: %q, %v; want %q", at, got, err, decoded)
		}
	}
	for at := 0; at <= len(encoded); at++ { // and every pair of splits, one byte per read after
		for at2 := at; at2 <= len(encoded); at2 += 7 {
			r := io.MultiReader(bytes.NewReader(encoded[:at]), bytes.NewReader(encoded[at:at2]),
				iotest.OneByteReader(bytes.NewReader(encoded[at2:])))
			got, err := io.ReadAll(NewTextDecoder(r))
			if err != nil || !bytes.Equal(got, decoded) {
				t.Fatalf("splits at %d,%d: %v", at, at2, err)
			}
		}
	}
}

func TestTextDecoderFramesThroughReader(t *testing.T) {
	encoded, _ := chunkedBody()
	fr := NewFrameReader(NewTextDecoder(iotest.HalfReader(bytes.NewReader(encoded))), 64)
	var n int
	for {
		_, err := fr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 6 {
		t.Fatalf("read %d frames, want 6", n)
	}
}

func TestTextDecoderInvalid(t *testing.T) {
	tests := []struct {
		body   string
		offset int64
		reason string
	}{
		{"QUJD!", 4, "not standard base64"},
		{"QUJD\nQUJD", 4, "not standard base64"}, // no line breaks in a grpc-web-text body
		{"QQ=A", 3, "data after '='"},
		{"Q===", 1, "too early"},
		{"=AAA", 0, "too early"},
		{"QUJDRA", 6, "inside a base64 group"},
		{"QUJD-_", 4, "not standard base64"}, // URL alphabet is not grpc-web-text
	}
	for _, tt := range tests {
		_, err := io.ReadAll(NewTextDecoder(strings.NewReader(tt.body)))
		var te *TextError
		if !errors.As(err, &te) || te.Offset != tt.offset || !strings.Contains(te.Reason, tt.reason) {
			t.Errorf("%q: err = %v, want offset %d and %q", tt.body, err, tt.offset, tt.reason)
		}
	}
}

func TestTextDecoderReturnsDataBeforeError(t *testing.T) {
	got, err := io.ReadAll(NewTextDecoder(strings.NewReader("QUJD*")))
	if string(got) != "ABC" || err == nil {
		t.Fatalf("got %q, %v; want \"ABC\" then an error", got, err)
	}
}

func TestTextWriterChunkPerWrite(t *testing.T) {
	var out bytes.Buffer
	var writes int
	w := NewTextWriter(writerFunc(func(p []byte) (int, error) { writes++; return out.Write(p) }))
	for _, s := range []string{"a", "bc", "def", ""} {
		if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", s, n, err)
		}
	}
	if out.String() != "YQ==YmM=ZGVm" || writes != 3 {
		t.Fatalf("encoded %q in %d writes", out.String(), writes)
	}
	got, err := io.ReadAll(NewTextDecoder(&out))
	if err != nil || string(got) != "abcdef" {
		t.Fatalf("decode: %q, %v", got, err)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
