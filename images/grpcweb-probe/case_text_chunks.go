package main

import (
	"bytes"
	"net/http"
	"slices"

	"google.golang.org/grpc/codes"
	testpb "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// text_padded_chunks_decoded: a grpc-web-text body may be several separately padded base64
// pieces (one per flush), and the network may split a 4-character group anywhere. An edge that
// decodes the body as one base64 string fails on the first inner '=' (envoy's text decoding).

// textChunkSizes are payload sizes whose frames are not a multiple of 3 bytes long, so every
// frame's base64 piece ends in padding.
var textChunkSizes = []int{701, 1500, 3000}

// textOnlyMessage is what the origin answers a binary request; the client turns exactly this
// into "not applicable" (the edge in front of it does not speak grpc-web-text).
const textOnlyMessage = "wirelab-probe: text_padded_chunks needs application/grpc-web-text"

// textTrailers is the trailer block; its frame is not a multiple of 3 bytes either.
const textTrailers = "grpc-status: 0\r\nx-probe-text: padded\r\n"

func textChunksOrigin() http.Handler {
	return webHandler(func(c *webCall) {
		if !c.text {
			c.trailersOnly(codes.Unimplemented, textOnlyMessage)
			return
		}
		if !c.readRequest(&testpb.StreamingOutputCallRequest{}) {
			return
		}
		pieces := textChunkPieces()
		c.header()
		for _, chunk := range splitAcrossQuads(pieces) {
			if _, err := c.w.Write(chunk); err != nil {
				return
			}
			if c.rc.Flush() != nil { // each flush is one HTTP/1.1 chunk
				return
			}
		}
	})
}

// textChunkPieces is the origin's answer as padded base64 pieces: one per message frame, then
// the trailer frame's.
func textChunkPieces() [][]byte {
	var pieces [][]byte
	for _, n := range textChunkSizes {
		msg, _ := proto.Marshal(&testpb.StreamingOutputCallResponse{Payload: &testpb.Payload{Body: pattern(n)}})
		pieces = append(pieces, grpcweb.AppendText(nil, grpcweb.AppendFrame(nil, 0, msg)))
	}
	return append(pieces, grpcweb.AppendText(nil, grpcweb.AppendFrame(nil, grpcweb.FlagTrailer, []byte(textTrailers))))
}

// splitAcrossQuads joins padded base64 pieces and cuts the result where a decoder reading chunk
// by chunk must carry a partial 4-character group over: one character before and after each
// piece's end (a chunk then starts with padding, or ends one character into the next piece),
// and five characters into each piece.
func splitAcrossQuads(pieces [][]byte) [][]byte {
	all := bytes.Join(pieces, nil)
	var cuts []int
	start := 0
	for _, p := range pieces {
		end := start + len(p)
		cuts = append(cuts, start+5, end-1, end+1)
		start = end
	}
	slices.Sort(cuts)
	var chunks [][]byte
	prev := 0
	for _, cut := range slices.Compact(cuts) {
		if cut > prev && cut < len(all) {
			chunks = append(chunks, all[prev:cut])
			prev = cut
		}
	}
	return append(chunks, all[prev:])
}

func checkTextChunks(c *checker) error {
	ctx, svc, done, err := c.testCall(callTimeout)
	if err != nil {
		return err
	}
	defer done()
	req := &testpb.StreamingOutputCallRequest{}
	for _, n := range textChunkSizes {
		req.ResponseParameters = append(req.ResponseParameters, &testpb.ResponseParameters{Size: int32(n)})
	}
	c.step("StreamingOutputCall; the origin answers %d messages as padded base64 pieces in chunks cut mid-group", len(textChunkSizes))
	stream, err := startStream(ctx, svc, req)
	if err != nil {
		return err
	}
	for i, n := range textChunkSizes {
		m, err := stream.Recv()
		if s := status.Convert(err); s.Code() == codes.Unimplemented && s.Message() == textOnlyMessage {
			return &notApplicable{"the edge sends binary gRPC-web, not application/grpc-web-text"}
		}
		if err != nil {
			return failf("want message %d of %d (%d bytes), got %s", i+1, len(textChunkSizes), n, describe(err))
		}
		c.step("message %d: %d bytes", i+1, len(m.GetPayload().GetBody()))
		if !bytes.Equal(m.GetPayload().GetBody(), pattern(n)) {
			return failf("want message %d to carry the %d-byte payload sent, got %d bytes that differ", i+1, n, len(m.GetPayload().GetBody()))
		}
	}
	return streamEnd(c, stream, len(textChunkSizes))
}
