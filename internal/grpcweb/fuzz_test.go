package grpcweb

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

func FuzzFrameReader(f *testing.F) {
	f.Add(AppendFrame(AppendFrame(nil, 0, []byte("msg")), FlagTrailer, []byte("grpc-status: 0\r\n")), uint16(64))
	f.Add([]byte{0, 0xff, 0xff, 0xff, 0xff, 1, 2}, uint16(100)) // lying length far over the limit
	f.Add([]byte{0, 0, 0, 0x10, 0, 1, 2}, uint16(8192))         // lying length under the limit
	f.Add([]byte{0x81, 0, 0, 0}, uint16(1))
	f.Fuzz(func(t *testing.T, body []byte, limit uint16) {
		lim := int(limit) + 1
		fr := NewFrameReader(bytes.NewReader(body), lim)
		var reencoded []byte
		for {
			fm, err := fr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				var fe *FrameError
				if !errors.As(err, &fe) {
					t.Fatalf("untyped error %v", err)
				}
				return
			}
			if len(fm.Payload) > lim || cap(fm.Payload) != len(fm.Payload) {
				t.Fatalf("payload len %d cap %d with limit %d", len(fm.Payload), cap(fm.Payload), lim)
			}
			reencoded = AppendFrame(reencoded, fm.Flags, fm.Payload)
		}
		if !bytes.Equal(reencoded, body) {
			t.Fatalf("frames re-encode to %x, body was %x", reencoded, body)
		}
	})
}

// splitAt cuts b into pieces at the offsets named by cuts (each byte of cuts is a step).
func splitAt(b []byte, cuts []byte) [][]byte {
	var parts [][]byte
	for _, c := range cuts {
		n := int(c) % (len(b) + 1)
		parts = append(parts, b[:n])
		b = b[n:]
	}
	return append(parts, b)
}

// piecesReader returns one piece per Read (empty pieces are skipped by io.MultiReader).
func piecesReader(parts [][]byte) io.Reader {
	rs := make([]io.Reader, len(parts))
	for i, p := range parts {
		rs[i] = bytes.NewReader(p)
	}
	return io.MultiReader(rs...)
}

func FuzzTextDecoder(f *testing.F) {
	f.Add([]byte("hello, world"), []byte{1, 2}, []byte{3, 5, 7})
	f.Add([]byte{}, []byte{}, []byte{})
	f.Add([]byte{0, 0, 0, 0, 1, 0xff}, []byte{1, 1, 1, 1}, []byte{1, 1, 1, 1, 1, 1})
	f.Fuzz(func(t *testing.T, data, chunkCuts, readCuts []byte) {
		// A valid encoding: data cut into flushes, each its own padded chunk.
		var encoded []byte
		for _, chunk := range splitAt(data, chunkCuts) {
			encoded = AppendText(encoded, chunk)
		}
		whole, err := io.ReadAll(NewTextDecoder(bytes.NewReader(encoded)))
		if err != nil || !bytes.Equal(whole, data) {
			t.Fatalf("whole decode: %v; got %x want %x", err, whole, data)
		}
		split, err := io.ReadAll(NewTextDecoder(piecesReader(splitAt(encoded, readCuts))))
		if err != nil || !bytes.Equal(split, whole) {
			t.Fatalf("split decode: %v; got %x want %x", err, split, whole)
		}
		// Arbitrary input: no panic, and splitting reads never changes the outcome.
		w, werr := io.ReadAll(NewTextDecoder(bytes.NewReader(data)))
		s, serr := io.ReadAll(NewTextDecoder(piecesReader(splitAt(data, readCuts))))
		if !bytes.Equal(w, s) || (werr == nil) != (serr == nil) {
			t.Fatalf("garbage %q: whole %x,%v split %x,%v", data, w, werr, s, serr)
		}
	})
}
