package grpcweb

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// Field is one metadata entry. Names are lowercase; -bin values stay base64 as on the wire.
type Field struct {
	Name, Value string
}

// Metadata is an ordered list of fields. Unlike http.Header it keeps the order of different names
// and never canonicalises case, which is what trailer frames need (duplicates must survive).
type Metadata []Field

// Get returns the first value of name (compared case-insensitively).
func (m Metadata) Get(name string) (string, bool) {
	for _, f := range m {
		if strings.EqualFold(f.Name, name) {
			return f.Value, true
		}
	}
	return "", false
}

// Values returns every value of name in order.
func (m Metadata) Values(name string) []string {
	var vs []string
	for _, f := range m {
		if strings.EqualFold(f.Name, name) {
			vs = append(vs, f.Value)
		}
	}
	return vs
}

// MetadataFromHeader lists h with lowercase names, names sorted, each name's values in order.
func MetadataFromHeader(h http.Header) Metadata {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	slices.Sort(names)
	var m Metadata
	for _, k := range names {
		for _, v := range h[k] {
			m = append(m, Field{Name: strings.ToLower(k), Value: v})
		}
	}
	return m
}

// ErrMalformedTrailers is wrapped by every ParseTrailers error.
var ErrMalformedTrailers = errors.New("grpcweb: malformed trailer block")

// ParseTrailers parses a trailer frame payload: HTTP/1-style "name: value" lines ending in CRLF
// (a bare LF and a missing final terminator are tolerated). Names may have any case and are
// lowercased; duplicates are kept in order; values are trimmed of surrounding spaces and tabs.
func ParseTrailers(block []byte) (Metadata, error) {
	var m Metadata
	for line := 1; len(block) > 0; line++ {
		var l []byte
		if i := bytes.IndexByte(block, '\n'); i >= 0 {
			l, block = block[:i], block[i+1:]
		} else {
			l, block = block, nil
		}
		l = bytes.TrimSuffix(l, []byte{'\r'})
		if len(l) == 0 {
			continue
		}
		colon := bytes.IndexByte(l, ':')
		if colon < 0 {
			return nil, fmt.Errorf("%w: line %d has no ':'", ErrMalformedTrailers, line)
		}
		name, value := l[:colon], bytes.Trim(l[colon+1:], " \t")
		if !validName(name) {
			return nil, fmt.Errorf("%w: line %d has an invalid name %q", ErrMalformedTrailers, line, name)
		}
		if !validValue(value) {
			return nil, fmt.Errorf("%w: line %d has a control character in the value of %q", ErrMalformedTrailers, line, name)
		}
		m = append(m, Field{Name: strings.ToLower(string(name)), Value: string(value)})
	}
	return m, nil
}

// AppendTrailers appends m as a trailer block with lowercase names, one "name: value\r\n" line
// per field, duplicates included.
func AppendTrailers(dst []byte, m Metadata) []byte {
	for _, f := range m {
		dst = append(dst, strings.ToLower(f.Name)...)
		dst = append(dst, ": "...)
		dst = append(dst, f.Value...)
		dst = append(dst, "\r\n"...)
	}
	return dst
}

// validName: a non-empty RFC 9110 token.
func validName(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c >= 0x80 || !isTokenChar[c] {
			return false
		}
	}
	return true
}

// validValue rejects control characters other than tab; percent-encoding keeps grpc-message clean.
func validValue(b []byte) bool {
	for _, c := range b {
		if (c < 0x20 && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}

var isTokenChar = func() (t [128]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
		t[c-'a'+'A'] = true
	}
	for _, c := range "!#$%&'*+-.^_`|~" {
		t[c] = true
	}
	return t
}()
