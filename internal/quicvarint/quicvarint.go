// Package quicvarint is QUIC's variable-length integer (RFC 9000 §16), the one encoding the
// trace checks, the fuzz seeds and the fuzz packet builder all read and write.
package quicvarint

import "fmt"

// Max is the largest value a varint holds (2^62-1).
const Max = 1<<62 - 1

// Read decodes the varint at the start of b; n is its length, 0 when b is too short.
func Read(b []byte) (v uint64, n int) {
	if len(b) == 0 {
		return 0, 0
	}
	n = 1 << (b[0] >> 6)
	if len(b) < n {
		return 0, 0
	}
	v = uint64(b[0] & 0x3f)
	for i := 1; i < n; i++ {
		v = v<<8 | uint64(b[i])
	}
	return v, n
}

// Append appends v in its shortest form; v above Max panics (a caller's bug).
func Append(b []byte, v uint64) []byte {
	switch {
	case v < 1<<6:
		return append(b, byte(v))
	case v < 1<<14:
		return append(b, 0x40|byte(v>>8), byte(v))
	case v < 1<<30:
		return append(b, 0x80|byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
	case v <= Max:
		return append(b, 0xc0|byte(v>>56), byte(v>>48), byte(v>>40), byte(v>>32), byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
	}
	panic(fmt.Sprintf("quicvarint: %d is above 2^62-1", v))
}
