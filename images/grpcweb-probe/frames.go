package main

import (
	"bytes"
	"fmt"
	"io"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// readFrames splits a whole gRPC or gRPC-web body into its frames. On a malformed frame it
// returns the frames before it with the error, so a check can say how far the body made sense.
func readFrames(body []byte) ([]grpcweb.Frame, error) {
	fr := grpcweb.NewFrameReader(bytes.NewReader(body), len(body))
	var frames []grpcweb.Frame
	for {
		f, err := fr.Next()
		if err == io.EOF {
			return frames, nil
		}
		if err != nil {
			return frames, err
		}
		frames = append(frames, f)
	}
}

// frameList describes frames by flags and length.
func frameList(frames []grpcweb.Frame) string {
	s := fmt.Sprintf("%d frames", len(frames))
	for _, f := range frames {
		s += fmt.Sprintf(" [flags 0x%02x, %d bytes]", f.Flags, len(f.Payload))
	}
	return s
}
