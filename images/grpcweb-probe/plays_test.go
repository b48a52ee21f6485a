package main

import (
	"bytes"
	"io"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// The text cases' frames are not multiples of 3 bytes, so each base64 piece ends in padding,
// and the chunks cut 4-character groups yet join back to the pieces.
func TestTextPiecesArePaddedAndChunksCutGroups(t *testing.T) {
	_, reqPieces := textRequestPieces()
	for _, set := range [][][]byte{textChunkPieces(), reqPieces} {
		for i, p := range set {
			if p[len(p)-1] != '=' {
				t.Errorf("piece %d of %d ends %q: want padding", i, len(set), p[len(p)-4:])
			}
		}
		chunks := splitAcrossQuads(set)
		if !bytes.Equal(bytes.Join(chunks, nil), bytes.Join(set, nil)) {
			t.Fatal("chunks do not join back to the pieces")
		}
		cutsGroups, startsWithPad := 0, 0
		at := 0
		for _, c := range chunks[:len(chunks)-1] {
			if at += len(c); at%4 != 0 {
				cutsGroups++
			}
		}
		for _, c := range chunks {
			if c[0] == '=' {
				startsWithPad++
			}
		}
		if cutsGroups < len(set) || startsWithPad == 0 {
			t.Errorf("%d chunks: %d cut a group, %d start with padding; want at least %d and 1", len(chunks), cutsGroups, startsWithPad, len(set))
		}
		decoded, err := io.ReadAll(grpcweb.NewTextDecoder(bytes.NewReader(bytes.Join(chunks, nil))))
		if err != nil || len(decoded) == 0 {
			t.Errorf("decoding the chunks: %v", err)
		}
	}
}

func TestSizedRequestIsExact(t *testing.T) {
	for _, size := range []int{sizeLimit, sizeLimit + 1, 200, 128} {
		req, err := sizedRequest(size)
		if err != nil || proto.Size(req) != size {
			t.Errorf("sizedRequest(%d): %v, %d bytes", size, err, proto.Size(req))
		}
	}
}
