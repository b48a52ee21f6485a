// Package grpcweb is wirelab's gRPC-web wire library: length-prefixed framing, the base64
// grpc-web-text body encoding, trailer frames, status mapping and grpc-timeout values. It follows
// grpc/grpc doc/PROTOCOL-WEB.md and PROTOCOL-HTTP2.md and keeps memory bounded per message so a
// converter can read untrusted bodies one message at a time.
package grpcweb

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Frame flag bits. gRPC uses only FlagCompressed; gRPC-web adds FlagTrailer for the trailer frame
// at the end of the body (0x81 = compressed trailers).
const (
	FlagCompressed byte = 0x01
	FlagTrailer    byte = 0x80
)

// FrameHeaderLen is the size of the prefix: 1 flag byte and a 4-byte big-endian payload length.
const FrameHeaderLen = 5

// DefaultMaxMessageBytes is the payload limit used when a reader is given none; grpc-go's default
// receive limit.
const DefaultMaxMessageBytes = 4 << 20

// Frame is one length-prefixed message or trailer block.
type Frame struct {
	Flags   byte
	Payload []byte
}

// IsTrailer reports whether the frame carries trailers rather than a message.
func (f Frame) IsTrailer() bool { return f.Flags&FlagTrailer != 0 }

// IsCompressed reports whether the payload is compressed with the stream's grpc-encoding.
func (f Frame) IsCompressed() bool { return f.Flags&FlagCompressed != 0 }

// AppendFrame appends the framed payload to dst.
func AppendFrame(dst []byte, flags byte, payload []byte) []byte {
	dst = append(dst, flags, 0, 0, 0, 0)
	binary.BigEndian.PutUint32(dst[len(dst)-4:], uint32(len(payload)))
	return append(dst, payload...)
}

// FrameErrorKind says what was wrong with a frame.
type FrameErrorKind int

const (
	// TruncatedHeader: the body ended inside the 5-byte prefix.
	TruncatedHeader FrameErrorKind = iota + 1
	// TruncatedPayload: the body ended before the declared length (a lying length).
	TruncatedPayload
	// TooLarge: the declared length exceeds the reader's limit; nothing of the payload was read.
	TooLarge
	// BadFlags: reserved flag bits are set.
	BadFlags
)

// FrameError is the typed error for malformed or oversized frames.
type FrameError struct {
	Kind   FrameErrorKind
	Flags  byte
	Length uint32 // declared payload length (0 if the header was truncated)
	Limit  int    // the reader's limit
	Got    int    // bytes of the header (TruncatedHeader) or payload (TruncatedPayload) present
}

func (e *FrameError) Error() string {
	switch e.Kind {
	case TruncatedHeader:
		return fmt.Sprintf("grpcweb: frame header truncated after %d of %d bytes", e.Got, FrameHeaderLen)
	case TruncatedPayload:
		return fmt.Sprintf("grpcweb: frame declares %d bytes but the body ended after %d", e.Length, e.Got)
	case TooLarge:
		return fmt.Sprintf("grpcweb: frame of %d bytes exceeds the limit of %d", e.Length, e.Limit)
	case BadFlags:
		return fmt.Sprintf("grpcweb: frame has reserved flag bits set (0x%02x)", e.Flags)
	}
	return "grpcweb: bad frame"
}

// Unwrap lets errors.Is(err, io.ErrUnexpectedEOF) detect truncation.
func (e *FrameError) Unwrap() error {
	if e.Kind == TruncatedHeader || e.Kind == TruncatedPayload {
		return io.ErrUnexpectedEOF
	}
	return nil
}

// IsTooLarge reports whether err is a FrameError of kind TooLarge.
func IsTooLarge(err error) bool {
	var fe *FrameError
	return errors.As(err, &fe) && fe.Kind == TooLarge
}

// FrameReader reads frames one at a time from a stream.
type FrameReader struct {
	r     io.Reader
	limit int
	hdr   [FrameHeaderLen]byte
}

// NewFrameReader reads frames from r; payloads longer than limit bytes are refused with a TooLarge
// FrameError (limit <= 0 means DefaultMaxMessageBytes).
func NewFrameReader(r io.Reader, limit int) *FrameReader {
	if limit <= 0 {
		limit = DefaultMaxMessageBytes
	}
	return &FrameReader{r: r, limit: limit}
}

// growStep bounds the first allocation so a lying length costs memory only as data arrives.
const growStep = 32 << 10

// Next returns the next frame. At a clean end of the stream (between frames) it returns io.EOF;
// a stream that ends cleanly inside a frame gives a *FrameError. Errors of the underlying reader
// (a reset connection, an aborted chunked body) are returned as they are, not as truncation.
func (fr *FrameReader) Next() (Frame, error) {
	n, err := readFull(fr.r, fr.hdr[:])
	switch {
	case err == io.EOF && n == 0:
		return Frame{}, io.EOF
	case err == io.EOF:
		return Frame{}, &FrameError{Kind: TruncatedHeader, Limit: fr.limit, Got: n}
	case err != nil:
		return Frame{}, err
	}
	f := Frame{Flags: fr.hdr[0]}
	length := binary.BigEndian.Uint32(fr.hdr[1:])
	if f.Flags&^(FlagCompressed|FlagTrailer) != 0 {
		return Frame{}, &FrameError{Kind: BadFlags, Flags: f.Flags, Length: length, Limit: fr.limit}
	}
	if uint64(length) > uint64(fr.limit) {
		return Frame{}, &FrameError{Kind: TooLarge, Flags: f.Flags, Length: length, Limit: fr.limit}
	}
	f.Payload, err = readPayload(fr.r, int(length))
	if err == io.EOF {
		return Frame{}, &FrameError{Kind: TruncatedPayload, Flags: f.Flags, Length: length, Limit: fr.limit, Got: len(f.Payload)}
	}
	return f, err
}

// readFull is io.ReadFull without its translation of a mid-buffer io.EOF into
// io.ErrUnexpectedEOF, so that a clean end and a failing reader stay apart.
func readFull(r io.Reader, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		m, err := r.Read(b[n:])
		n += m
		if err != nil {
			if err == io.EOF && n == len(b) {
				return n, nil
			}
			return n, err
		}
	}
	return n, nil
}

// readPayload reads exactly n bytes, growing the buffer as data arrives (never beyond n). On a
// short read it returns what it got.
func readPayload(r io.Reader, n int) ([]byte, error) {
	buf := make([]byte, 0, min(n, growStep))
	for len(buf) < n {
		if len(buf) == cap(buf) {
			grown := make([]byte, len(buf), min(n, 2*cap(buf)))
			copy(grown, buf)
			buf = grown
		}
		m, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		if err != nil {
			if err == io.EOF && len(buf) == n {
				break
			}
			return buf, err
		}
	}
	return buf, nil
}
