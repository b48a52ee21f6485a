package main

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// rpcError is a gRPC status the converter itself decided on.
type rpcError struct {
	code grpcweb.Code
	msg  string // not yet percent-encoded
}

func (e *rpcError) Error() string { return e.code.String() + ": " + e.msg }

func rpcErrorf(code grpcweb.Code, format string, args ...any) *rpcError {
	return &rpcError{code, fmt.Sprintf(format, args...)}
}

// metadata is the status as trailer fields.
func (e *rpcError) metadata() grpcweb.Metadata {
	return grpcweb.Metadata{
		{Name: "grpc-status", Value: strconv.Itoa(int(e.code))},
		{Name: "grpc-message", Value: grpcweb.EncodeMessage(e.msg)},
	}
}

// frameError turns a problem with a body the converter reads (frames, base64, trailers) into the
// status for the stream: RESOURCE_EXHAUSTED over the size limit, INTERNAL for malformed input.
// It returns nil for other errors (network, cancellation), which the caller classifies.
func frameError(err error, what string) *rpcError {
	var (
		fe *grpcweb.FrameError
		te *grpcweb.TextError
		re *rpcError
	)
	switch {
	case errors.As(err, &re):
		return re
	case errors.As(err, &fe) && fe.Kind == grpcweb.TooLarge:
		return rpcErrorf(grpcweb.ResourceExhausted, "%s: message of %d bytes exceeds --max-message-bytes=%d", what, fe.Length, fe.Limit)
	case errors.As(err, &fe), errors.As(err, &te), errors.Is(err, grpcweb.ErrMalformedTrailers):
		return rpcErrorf(grpcweb.Internal, "%s: %v", what, err)
	}
	return nil
}
