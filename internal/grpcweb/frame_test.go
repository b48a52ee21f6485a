package grpcweb

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"testing"
	"testing/iotest"
)

func TestFrameRoundTrip(t *testing.T) {
	var body []byte
	body = AppendFrame(body, 0, []byte("hello"))
	body = AppendFrame(body, FlagCompressed, nil)
	body = AppendFrame(body, FlagTrailer, []byte("grpc-status: 0\r\n"))
	// One byte per Read: a frame header split across reads must still parse.
	fr := NewFrameReader(iotest.OneByteReader(bytes.NewReader(body)), 16)
	want := []Frame{{0, []byte("hello")}, {FlagCompressed, []byte{}}, {FlagTrailer, []byte("grpc-status: 0\r\n")}}
	for i, w := range want {
		f, err := fr.Next()
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if f.Flags != w.Flags || !bytes.Equal(f.Payload, w.Payload) {
			t.Fatalf("frame %d = %+v, want %+v", i, f, w)
		}
	}
	if !want[2].IsTrailer() || want[2].IsCompressed() || !want[1].IsCompressed() {
		t.Fatal("flag helpers disagree with flags")
	}
	if _, err := fr.Next(); err != io.EOF {
		t.Fatalf("after last frame: %v, want io.EOF", err)
	}
}

func TestFrameErrors(t *testing.T) {
	tests := []struct {
		name  string
		body  []byte
		limit int
		kind  FrameErrorKind
		got   int
	}{
		{"truncated header", []byte{0, 0, 0}, 16, TruncatedHeader, 3},
		{"lying length", []byte{0, 0, 0, 0, 10, 'a', 'b', 'c'}, 16, TruncatedPayload, 3},
		{"lying length, no payload", []byte{0, 0, 0, 0, 1}, 16, TruncatedPayload, 0},
		{"over limit", []byte{0, 0, 0, 0, 17}, 16, TooLarge, 0},
		{"huge length", []byte{0, 0xff, 0xff, 0xff, 0xff}, 16, TooLarge, 0},
		{"reserved flags", []byte{0x02, 0, 0, 0, 0}, 16, BadFlags, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewFrameReader(bytes.NewReader(tt.body), tt.limit).Next()
			var fe *FrameError
			if !errors.As(err, &fe) || fe.Kind != tt.kind || fe.Got != tt.got {
				t.Fatalf("err = %#v, want kind %d got %d", err, tt.kind, tt.got)
			}
			truncated := tt.kind == TruncatedHeader || tt.kind == TruncatedPayload
			if errors.Is(err, io.ErrUnexpectedEOF) != truncated {
				t.Fatalf("errors.Is(ErrUnexpectedEOF) = %v for %v", !truncated, err)
			}
			if IsTooLarge(err) != (tt.kind == TooLarge) || err.Error() == "" {
				t.Fatalf("IsTooLarge wrong for %v", err)
			}
		})
	}
}

func TestFrameAtLimit(t *testing.T) {
	payload := bytes.Repeat([]byte{7}, 100<<10) // larger than growStep: exercises growth
	body := AppendFrame(nil, 0, payload)
	f, err := NewFrameReader(bytes.NewReader(body), len(payload)).Next()
	if err != nil || !bytes.Equal(f.Payload, payload) {
		t.Fatalf("frame at the limit: %v", err)
	}
	if cap(f.Payload) > len(payload) {
		t.Fatalf("buffer grew to %d for a %d byte payload", cap(f.Payload), len(payload))
	}
	if _, err := NewFrameReader(bytes.NewReader(body), len(payload)-1).Next(); !IsTooLarge(err) {
		t.Fatalf("one byte over: %v, want TooLarge", err)
	}
}

func TestFrameReaderPassesReadErrors(t *testing.T) {
	boom := errors.New("boom")
	if _, err := NewFrameReader(iotest.ErrReader(boom), 0).Next(); err != boom {
		t.Fatalf("header read error: %v", err)
	}
	r := io.MultiReader(bytes.NewReader([]byte{0, 0, 0, 0, 4, 'a'}), iotest.ErrReader(boom))
	if _, err := NewFrameReader(r, 0).Next(); err != boom {
		t.Fatalf("payload read error: %v", err)
	}
	// An aborted chunked body reports io.ErrUnexpectedEOF itself: that is the reader failing, not
	// a frame lying about its length.
	for _, body := range [][]byte{nil, {0, 0}, {0, 0, 0, 0, 4, 'a'}} {
		r := io.MultiReader(bytes.NewReader(body), iotest.ErrReader(io.ErrUnexpectedEOF))
		var fe *FrameError
		if _, err := NewFrameReader(r, 0).Next(); err != io.ErrUnexpectedEOF || errors.As(err, &fe) {
			t.Fatalf("after %x: %#v, want the reader's io.ErrUnexpectedEOF", body, err)
		}
	}
}

// TestLyingLengthCostsLittleMemory: a header claiming almost the limit, followed by a few bytes,
// must not make the reader allocate the claimed size up front.
func TestLyingLengthCostsLittleMemory(t *testing.T) {
	body := append([]byte{0, 0, 0x3f, 0xff, 0xff}, "only a few bytes"...) // claims 4 MiB - 1
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const runs = 50
	for range runs {
		if _, err := NewFrameReader(bytes.NewReader(body), DefaultMaxMessageBytes).Next(); err == nil {
			t.Fatal("lying length accepted")
		}
	}
	runtime.ReadMemStats(&after)
	if perRun := (after.TotalAlloc - before.TotalAlloc) / runs; perRun > 2*growStep {
		t.Fatalf("%d bytes allocated per lying frame, want at most %d", perRun, 2*growStep)
	}
}
