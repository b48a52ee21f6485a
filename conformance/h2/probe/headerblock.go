package probe

// Header blocks are encoded by hand as HPACK literals without indexing (RFC 7541 §6.2.2), with
// no Huffman coding: the abusive connection then never touches the dynamic table, so a block
// the server discards half-way (a flood) cannot desynchronize the next one, and a field's
// encoded size is known, which the CONTINUATION flood uses to fill its frames.

// appendLiteral appends one field as a literal without indexing with a new name.
func appendLiteral(b []byte, name, value string) []byte {
	b = append(b, 0x00)
	b = appendString(b, name)
	return appendString(b, value)
}

// appendString appends a string literal: H=0, its length as a 7-bit-prefix integer, the bytes.
func appendString(b []byte, s string) []byte {
	b = appendPrefixInt(b, 7, uint64(len(s)))
	return append(b, s...)
}

// appendPrefixInt appends v as an HPACK integer with an n-bit prefix (RFC 7541 §5.1), the
// prefix's high bits zero.
func appendPrefixInt(b []byte, n uint, v uint64) []byte {
	limit := uint64(1)<<n - 1
	if v < limit {
		return append(b, byte(v))
	}
	b = append(b, byte(limit))
	for v -= limit; v >= 0x80; v >>= 7 {
		b = append(b, byte(v&0x7f)|0x80)
	}
	return append(b, byte(v))
}

// literalSize is how many bytes appendLiteral uses for a field of these lengths.
func literalSize(nameLen, valueLen int) int {
	return 1 + len(appendPrefixInt(nil, 7, uint64(nameLen))) + nameLen +
		len(appendPrefixInt(nil, 7, uint64(valueLen))) + valueLen
}

// probeUserAgent names the abusive connection's requests in the server's logs.
const probeUserAgent = "wirelab-h2probe"

// requestBlock is the header block of a request without a body: the four pseudo-header
// fields, then extra fields as name, value pairs.
func requestBlock(method, authority, path string, extra ...string) []byte {
	b := appendLiteral(nil, ":method", method)
	b = appendLiteral(b, ":scheme", "https")
	b = appendLiteral(b, ":authority", authority)
	b = appendLiteral(b, ":path", path)
	b = appendLiteral(b, "user-agent", probeUserAgent)
	for i := 0; i+1 < len(extra); i += 2 {
		b = appendLiteral(b, extra[i], extra[i+1])
	}
	return b
}
