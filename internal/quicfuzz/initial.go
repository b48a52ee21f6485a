// Package quicfuzz drives the QUIC frame parsers of quic-go and golang.org/x/net/quic the way a
// peer does: through a client Initial packet, protected with the RFC 9001 §5.2 Initial keys and
// delivered to a real server listening on an in-memory net.PacketConn (issue #16). Both libraries
// keep their frame parsers unexported, so this is the only way in through their public APIs.
package quicfuzz

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/wirelab/wirelab/internal/quicvarint"
)

// InitialSaltV1 is the QUIC version 1 Initial salt (RFC 9001 §5.2).
var InitialSaltV1 = []byte{0x38, 0x76, 0x2c, 0xf7, 0xf5, 0x59, 0x34, 0xb3, 0x4d, 0x17, 0x9a, 0xe6, 0xa4, 0xc8, 0x0c, 0xad, 0xcc, 0xbb, 0x7f, 0x0a}

// Version1 is QUIC version 1 (RFC 9000).
const Version1 = 0x00000001

// hkdfExpandLabel is TLS 1.3's HKDF-Expand-Label (RFC 8446 §7.1) with an empty context.
func hkdfExpandLabel(secret []byte, label string, length int) []byte {
	full := "tls13 " + label
	info := make([]byte, 0, 4+len(full))
	info = binary.BigEndian.AppendUint16(info, uint16(length))
	info = append(info, byte(len(full)))
	info = append(info, full...)
	info = append(info, 0) // empty context
	out, err := hkdf.Expand(sha256.New, secret, string(info), length)
	if err != nil {
		panic(err)
	}
	return out
}

// Keys are one direction's Initial packet protection keys.
type Keys struct {
	Secret, Key, IV, HP []byte
	aead                cipher.AEAD
	hp                  cipher.Block
}

// NewInitialKeys derives the client's (server=false) or server's Initial keys from the
// Destination Connection ID of the client's first Initial packet (RFC 9001 §5.2).
func NewInitialKeys(dcid []byte, server bool) *Keys {
	initial, err := hkdf.Extract(sha256.New, dcid, InitialSaltV1)
	if err != nil {
		panic(err)
	}
	label := "client in"
	if server {
		label = "server in"
	}
	k := &Keys{Secret: hkdfExpandLabel(initial, label, 32)}
	k.Key = hkdfExpandLabel(k.Secret, "quic key", 16)
	k.IV = hkdfExpandLabel(k.Secret, "quic iv", 12)
	k.HP = hkdfExpandLabel(k.Secret, "quic hp", 16)
	block, err := aes.NewCipher(k.Key)
	if err != nil {
		panic(err)
	}
	if k.aead, err = cipher.NewGCM(block); err != nil {
		panic(err)
	}
	if k.hp, err = aes.NewCipher(k.HP); err != nil {
		panic(err)
	}
	return k
}

func (k *Keys) nonce(pn uint64) []byte {
	n := make([]byte, 12)
	copy(n, k.IV)
	for i := 0; i < 8; i++ {
		n[11-i] ^= byte(pn >> (8 * i))
	}
	return n
}

// mask is the header protection mask for a sample (AES-ECB of the 16-byte sample, RFC 9001 §5.4.3).
func (k *Keys) mask(sample []byte) [16]byte {
	var m [16]byte
	k.hp.Encrypt(m[:], sample[:16])
	return m
}

// Initial describes a client Initial packet before protection.
type Initial struct {
	DCID, SCID, Token []byte
	PN                uint64
	PNLen             int    // 1..4 bytes on the wire
	Payload           []byte // frames
	// PadTo, when larger than the packet, appends PADDING frames (zero bytes) to the payload
	// until the protected packet is PadTo bytes long (RFC 9000 §14.1: client Initials >= 1200).
	PadTo int
}

// Seal builds and protects the packet: AES-128-GCM over the payload with the header as
// associated data, then AES-ECB header protection (RFC 9001 §5.3, §5.4). The Length field is
// always a 2-byte varint, as in RFC 9001 Appendix A.
func (p *Initial) Seal(k *Keys) []byte {
	if p.PNLen < 1 || p.PNLen > 4 {
		panic("packet number length")
	}
	hdr := []byte{0xc0 | byte(p.PNLen-1)} // long header, fixed bit, type Initial (00)
	hdr = binary.BigEndian.AppendUint32(hdr, Version1)
	hdr = append(hdr, byte(len(p.DCID)))
	hdr = append(hdr, p.DCID...)
	hdr = append(hdr, byte(len(p.SCID)))
	hdr = append(hdr, p.SCID...)
	hdr = quicvarint.Append(hdr, uint64(len(p.Token)))
	hdr = append(hdr, p.Token...)
	payload := p.Payload
	if pad := p.PadTo - (len(hdr) + 2 + p.PNLen + len(payload) + k.aead.Overhead()); pad > 0 {
		payload = append(append([]byte(nil), payload...), make([]byte, pad)...)
	}
	// Header protection samples 16 bytes starting 4 bytes after the packet number's first byte.
	if short := 4 - p.PNLen - len(payload); short > 0 {
		payload = append(append([]byte(nil), payload...), make([]byte, short)...)
	}
	length := uint64(p.PNLen + len(payload) + k.aead.Overhead())
	if length >= 1<<14 {
		panic("packet too long")
	}
	hdr = append(hdr, 0x40|byte(length>>8), byte(length))
	pnOff := len(hdr)
	for i := p.PNLen - 1; i >= 0; i-- {
		hdr = append(hdr, byte(p.PN>>(8*i)))
	}
	pkt := k.aead.Seal(hdr, k.nonce(p.PN), payload, hdr)
	m := k.mask(pkt[pnOff+4 : pnOff+20])
	pkt[0] ^= m[0] & 0x0f
	for i := 0; i < p.PNLen; i++ {
		pkt[pnOff+i] ^= m[1+i]
	}
	return pkt
}

// LongPacket is one long-header packet of a datagram; Payload is set for Initial packets the
// keys opened.
type LongPacket struct {
	Type       byte // 0 Initial, 1 0-RTT, 2 Handshake, 3 Retry
	Version    uint32
	DCID, SCID []byte
	PN         uint64
	Payload    []byte
}

// OpenInitials splits a datagram into its coalesced long-header packets (RFC 9000 §12.2) and
// removes protection from the Initial ones with k. Packets of other types are returned without
// payload; a short-header packet ends the datagram.
func OpenInitials(dgram []byte, k *Keys) ([]LongPacket, error) {
	var out []LongPacket
	for len(dgram) > 0 {
		b := dgram
		if b[0]&0x80 == 0 {
			break // short header: the rest of the datagram
		}
		if len(b) < 7 {
			return out, errors.New("truncated long header")
		}
		p := LongPacket{Type: b[0] >> 4 & 3, Version: binary.BigEndian.Uint32(b[1:5])}
		if p.Version == 0 {
			return append(out, p), nil // Version Negotiation
		}
		i := 5
		read := func(n int) ([]byte, error) {
			if n < 0 || len(b) < i+n {
				return nil, errors.New("truncated long header")
			}
			i += n
			return b[i-n : i], nil
		}
		l, err := read(1)
		if err != nil {
			return out, err
		}
		if p.DCID, err = read(int(l[0])); err != nil {
			return out, err
		}
		if l, err = read(1); err != nil {
			return out, err
		}
		if p.SCID, err = read(int(l[0])); err != nil {
			return out, err
		}
		if p.Type == 3 { // Retry: the rest of the datagram
			return append(out, p), nil
		}
		if p.Type == 0 {
			tl, n := quicvarint.Read(b[i:])
			if n == 0 || uint64(len(b)-i-n) < tl {
				return out, errors.New("bad token length")
			}
			i += n + int(tl)
		}
		length, n := quicvarint.Read(b[i:])
		if n == 0 || uint64(len(b)-i-n) < length {
			return out, errors.New("bad packet length")
		}
		i += n
		pnOff, end := i, i+int(length)
		dgram = b[end:]
		if p.Type != 0 {
			out = append(out, p)
			continue
		}
		if end-pnOff < 20 {
			return out, errors.New("Initial packet too short to sample")
		}
		pkt := append([]byte(nil), b[:end]...)
		m := k.mask(pkt[pnOff+4 : pnOff+20])
		pkt[0] ^= m[0] & 0x0f
		pnLen := int(pkt[0]&3) + 1
		for j := 0; j < pnLen; j++ {
			pkt[pnOff+j] ^= m[1+j]
			p.PN = p.PN<<8 | uint64(pkt[pnOff+j])
		}
		// The truncated packet number is the full one for the first 2^(8*pnLen) packets of a
		// connection, all that a single exchange here sees.
		hdrEnd := pnOff + pnLen
		if p.Payload, err = k.aead.Open(nil, k.nonce(p.PN), pkt[hdrEnd:], pkt[:hdrEnd]); err != nil {
			return out, fmt.Errorf("Initial packet %d: %w", p.PN, err)
		}
		out = append(out, p)
	}
	return out, nil
}
