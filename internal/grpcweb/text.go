package grpcweb

import (
	"encoding/base64"
	"fmt"
	"io"
)

// A grpc-web-text body is standard base64 of the binary body, but a sender may encode each flush
// as its own padded chunk, so '=' can appear at the end of every chunk, mid-body, and a network
// read can split a 4-character group anywhere. The decoder therefore works quad by quad on a
// stream instead of handing whole bodies to encoding/base64.

// TextError reports invalid base64 in a grpc-web-text body.
type TextError struct {
	Offset int64 // offset of the offending character in the encoded body
	Reason string
}

func (e *TextError) Error() string {
	return fmt.Sprintf("grpcweb: invalid grpc-web-text at offset %d: %s", e.Offset, e.Reason)
}

const invalid = 0xff

// alphabet maps a standard base64 character to its 6-bit value, anything else to invalid.
var alphabet = func() (m [256]byte) {
	const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for i := range m {
		m[i] = invalid
	}
	for i := 0; i < len(chars); i++ {
		m[chars[i]] = byte(i)
	}
	return m
}()

// TextDecoder is an io.Reader yielding the binary body of a grpc-web-text stream.
type TextDecoder struct {
	src  io.Reader
	raw  []byte // read buffer for encoded input
	out  []byte // decoded bytes not yet returned
	pos  int    // next unread byte of out
	quad [4]byte
	nq   int   // characters collected in quad
	off  int64 // encoded bytes consumed so far
	err  error // sticky error, returned once out is drained
}

// NewTextDecoder decodes the grpc-web-text stream r.
func NewTextDecoder(r io.Reader) *TextDecoder {
	return &TextDecoder{src: r, raw: make([]byte, 4096), out: make([]byte, 0, 3072)}
}

// Read implements io.Reader. Invalid input yields a *TextError; a body ending inside a quad is
// invalid too (unpadded output is never produced by a conforming sender).
func (d *TextDecoder) Read(p []byte) (int, error) {
	for {
		if d.pos < len(d.out) {
			n := copy(p, d.out[d.pos:])
			d.pos += n
			return n, nil
		}
		if d.err != nil {
			return 0, d.err
		}
		n, err := d.src.Read(d.raw)
		d.out, d.pos = d.out[:0], 0
		if derr := d.decode(d.raw[:n]); derr != nil {
			d.err = derr
			continue
		}
		if err == io.EOF && d.nq != 0 {
			err = &TextError{Offset: d.off, Reason: fmt.Sprintf("body ends inside a base64 group (%d of 4 characters)", d.nq)}
		}
		d.err = err
	}
}

// decode appends the decoded form of in to d.out, carrying an incomplete quad over.
func (d *TextDecoder) decode(in []byte) error {
	for _, c := range in {
		if c == '=' {
			if d.nq < 2 {
				return &TextError{Offset: d.off, Reason: "padding '=' too early in a base64 group"}
			}
		} else if alphabet[c] == invalid {
			return &TextError{Offset: d.off, Reason: fmt.Sprintf("character 0x%02x is not standard base64", c)}
		} else if d.nq == 3 && d.quad[2] == '=' {
			return &TextError{Offset: d.off, Reason: "data after '=' in a base64 group"}
		}
		d.quad[d.nq] = c
		d.nq++
		d.off++
		if d.nq == 4 {
			d.out = appendQuad(d.out, d.quad)
			d.nq = 0
		}
	}
	return nil
}

// appendQuad decodes one validated group: "xx==" gives 1 byte, "xxx=" 2, "xxxx" 3.
func appendQuad(dst []byte, q [4]byte) []byte {
	v := uint32(alphabet[q[0]])<<18 | uint32(alphabet[q[1]])<<12
	switch {
	case q[2] == '=':
		return append(dst, byte(v>>16))
	case q[3] == '=':
		v |= uint32(alphabet[q[2]]) << 6
		return append(dst, byte(v>>16), byte(v>>8))
	}
	v |= uint32(alphabet[q[2]])<<6 | uint32(alphabet[q[3]])
	return append(dst, byte(v>>16), byte(v>>8), byte(v))
}

// AppendText appends p as one padded base64 chunk.
func AppendText(dst, p []byte) []byte {
	return base64.StdEncoding.AppendEncode(dst, p)
}

// TextWriter encodes every Write as its own padded base64 chunk, so each flushed message is
// complete on the wire instead of waiting for bytes to fill a 3-byte group.
type TextWriter struct {
	w   io.Writer
	buf []byte
}

// NewTextWriter encodes onto w.
func NewTextWriter(w io.Writer) *TextWriter { return &TextWriter{w: w} }

// Write encodes p and writes the chunk with a single Write to the underlying writer.
func (t *TextWriter) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	t.buf = AppendText(t.buf[:0], p)
	if _, err := t.w.Write(t.buf); err != nil {
		return 0, err
	}
	return len(p), nil
}
