package main

import (
	"encoding/binary"
	"errors"
)

// Every probe datagram starts with a 1-byte kind, an 8-byte session id and an 8-byte sequence
// number; echo probes add the sender's clock (ns); the rest is padding to the requested size.
const (
	kindEcho     = 'E' // client -> server -> client, for RTT and round-trip loss
	kindDownload = 'D' // client asks the server to send it a paced flow (rate, duration, size)
	kindData     = 'B' // bulk data, either direction
	kindReport   = 'R' // client asks for (or server answers with) the counts of an upload session
	headerLen    = 17
)

type header struct {
	kind    byte
	session uint64
	seq     uint64
}

func (h header) put(b []byte) {
	b[0] = h.kind
	binary.BigEndian.PutUint64(b[1:], h.session)
	binary.BigEndian.PutUint64(b[9:], h.seq)
}

func parseHeader(b []byte) (header, error) {
	if len(b) < headerLen {
		return header{}, errors.New("short datagram")
	}
	return header{kind: b[0], session: binary.BigEndian.Uint64(b[1:]), seq: binary.BigEndian.Uint64(b[9:])}, nil
}

// downloadRequest is the body of a kindDownload datagram. The GSO field came later: it is sent
// only when set (a longer datagram), so old servers still parse new requests and a request of
// the old length means no GSO.
type downloadRequest struct {
	BitsPerSecond int64 // IP-level rate to pace at; 0 = as fast as possible
	DurationMs    int64
	Size          int64 // datagram payload size
	GSO           int64 // datagrams per sendmsg (UDP GSO); 0 or 1 = one per send
}

const (
	downloadRequestLen    = headerLen + 24
	downloadRequestGSOLen = headerLen + 32
)

// wireLen is the length of the datagram carrying r.
func (r downloadRequest) wireLen() int {
	if r.GSO > 1 {
		return downloadRequestGSOLen
	}
	return downloadRequestLen
}

func (r downloadRequest) put(b []byte) {
	binary.BigEndian.PutUint64(b[headerLen:], uint64(r.BitsPerSecond))
	binary.BigEndian.PutUint64(b[headerLen+8:], uint64(r.DurationMs))
	binary.BigEndian.PutUint64(b[headerLen+16:], uint64(r.Size))
	if len(b) >= downloadRequestGSOLen {
		binary.BigEndian.PutUint64(b[headerLen+24:], uint64(r.GSO))
	}
}

func parseDownloadRequest(b []byte) (downloadRequest, error) {
	if len(b) < downloadRequestLen {
		return downloadRequest{}, errors.New("short download request")
	}
	r := downloadRequest{
		BitsPerSecond: int64(binary.BigEndian.Uint64(b[headerLen:])),
		DurationMs:    int64(binary.BigEndian.Uint64(b[headerLen+8:])),
		Size:          int64(binary.BigEndian.Uint64(b[headerLen+16:])),
	}
	if len(b) >= downloadRequestGSOLen {
		r.GSO = int64(binary.BigEndian.Uint64(b[headerLen+24:]))
	}
	return r, nil
}

// ipOverhead is the IP+UDP header bytes a datagram occupies on the link, so rates are reported
// at the IP level the sim's rate limiter counts.
func ipOverhead(v6 bool) int {
	if v6 {
		return 48
	}
	return 28
}
