package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// upload counts one upload session's datagrams as the server receives them.
type upload struct {
	Packets uint64 `json:"packets"`
	Bytes   uint64 `json:"bytes"` // IP-level
	FirstNs int64  `json:"first_ns"`
	LastNs  int64  `json:"last_ns"`
	MaxSeq  uint64 `json:"max_seq"`
}

// serve answers echo probes, download requests and upload reports on one UDP port, on a
// locked OS thread with blocking syscalls (see rawUDP).
func serve(port int) error {
	runtime.LockOSThread()
	sock, err := listenRawUDP(port)
	if err != nil {
		return err
	}
	fmt.Printf("probe: serving UDP %d\n", port)
	var mu sync.Mutex
	uploads := map[uint64]*upload{}
	downloads := map[uint64]bool{} // sessions already sending: a retried request starts nothing new
	buf := make([]byte, 65536)
	for {
		n, from, err := sock.recv(buf)
		if err != nil {
			if err == unix.EINTR {
				continue
			}
			return err
		}
		h, err := parseHeader(buf[:n])
		if err != nil {
			continue
		}
		v6 := addrOf(from).Is6()
		switch h.kind {
		case kindEcho:
			_ = sock.send(buf[:n], from)
		case kindData:
			now := time.Now().UnixNano()
			mu.Lock()
			u := uploads[h.session]
			if u == nil {
				u = &upload{FirstNs: now}
				uploads[h.session] = u
			}
			u.Packets++
			u.Bytes += uint64(n + ipOverhead(v6))
			u.LastNs = now
			u.MaxSeq = max(u.MaxSeq, h.seq)
			mu.Unlock()
		case kindReport:
			mu.Lock()
			data, _ := json.Marshal(uploads[h.session])
			mu.Unlock()
			reply := make([]byte, headerLen+len(data))
			header{kind: kindReport, session: h.session}.put(reply)
			copy(reply[headerLen:], data)
			_ = sock.send(reply, from)
		case kindDownload:
			req, err := parseDownloadRequest(buf[:n])
			if err != nil || req.Size < headerLen || req.Size > 9000 || req.DurationMs > 120000 || downloads[h.session] {
				continue
			}
			downloads[h.session] = true
			go func(to unix.Sockaddr, session uint64) {
				send := func(b []byte) error { return sock.send(b, to) }
				sendPaced(send, int(req.Size), req.BitsPerSecond, time.Duration(req.DurationMs)*time.Millisecond, v6, func(b []byte, seq uint64) {
					header{kind: kindData, session: session, seq: seq}.put(b)
				})
			}(from, h.session)
		}
	}
}
