package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"time"

	testpb "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/protobuf/proto"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// text_request_padded_chunks_decoded: a grpc-web-text request body made of separately padded
// base64 pieces, sent in HTTP/1.1 chunks that split 4-character groups, must reach the gRPC
// server whole (PROTOCOL-WEB.md: the body may be several padded base64 chunks).

// textRequestEcho is the server's answer payload for a request payload: its length and digest,
// so the client can tell that every byte arrived.
func textRequestEcho(p []byte) []byte {
	return fmt.Appendf(nil, "len=%d sha256=%x", len(p), sha256.Sum256(p))
}

func textRequestServer() http.Handler {
	echo := func(req *testpb.SimpleRequest) *testpb.SimpleResponse {
		return &testpb.SimpleResponse{Payload: &testpb.Payload{Body: textRequestEcho(req.GetPayload().GetBody())}}
	}
	return rawHandler(func(c *rawCall) { serveUnary(c, echo) }, nil)
}

// textRequestPieces is the request frame cut into three byte ranges whose lengths are not
// multiples of 3, each base64-encoded on its own, so each piece ends in padding.
func textRequestPieces() (payload []byte, pieces [][]byte) {
	for n := 1500; ; n++ {
		payload = pattern(n)
		msg, _ := proto.Marshal(&testpb.SimpleRequest{ResponseSize: 10, Payload: &testpb.Payload{Body: payload}})
		frame := grpcweb.AppendFrame(nil, 0, msg)
		cuts := []int{0, 7, 1007, len(frame)}
		if (cuts[3]-cuts[2])%3 == 0 {
			continue
		}
		for i := range 3 {
			pieces = append(pieces, grpcweb.AppendText(nil, frame[cuts[i]:cuts[i+1]]))
		}
		return payload, pieces
	}
}

func checkTextRequest(c *checker) error {
	payload, pieces := textRequestPieces()
	chunks := splitAcrossQuads(pieces)
	c.step("UnaryCall as application/grpc-web-text over HTTP/1.1: %d padded base64 pieces in %d chunks cut mid-group", len(pieces), len(chunks))
	body, w := io.Pipe()
	defer body.Close() // frees the writer, should the call end before the body is sent
	go func() {
		for _, chunk := range chunks {
			if _, err := w.Write(chunk); err != nil { // one write is one HTTP/1.1 chunk
				return
			}
			time.Sleep(5 * time.Millisecond) // apart, so the origin reads them apart
		}
		w.Close()
	}()
	m, err := c.textUnary(body)
	if err != nil {
		return err
	}
	want := textRequestEcho(payload)
	c.step("server saw %q", m.GetPayload().GetBody())
	if !bytes.Equal(m.GetPayload().GetBody(), want) {
		return failf("want the server to have seen %q, got %q", want, m.GetPayload().GetBody())
	}
	return nil
}
