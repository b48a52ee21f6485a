package main

import (
	"encoding/json"
	"fmt"
	"os"
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

// downloadFailed is the kindReport body telling a client its download could not be sent.
type downloadFailed struct {
	Error string `json:"error"`
}

// downloadSent hears how many datagrams each download sent; tests use it to check that the
// receiver counted every one.
var downloadSent = func(session, sent uint64) {}

// serve answers echo probes, download requests and upload reports on one UDP port, on a
// locked OS thread with blocking syscalls (see rawUDP). gso > 1 turns on UDP GRO so GSO uploads
// arrive a batch per syscall; downloads use the batch size each request asks for.
func serve(port, gso int) error {
	runtime.LockOSThread()
	sock, err := listenRawUDP(port)
	if err != nil {
		return err
	}
	if gso > 1 {
		if err := enableGRO(int(sock)); err != nil {
			return fmt.Errorf("-gso %d: enabling UDP_GRO: %w", gso, err)
		}
	}
	fmt.Printf("probe: serving UDP %d\n", port)
	return serveOn(sock, gso > 1)
}

// serveOn is serve's loop on an open socket; with gro it reads with recvmsg and splits
// coalesced reads into their datagrams.
func serveOn(sock rawUDP, gro bool) error {
	var mu sync.Mutex
	uploads := map[uint64]*upload{}
	downloads := map[uint64]bool{} // sessions already sending: a retried request starts nothing new
	buf, oob := make([]byte, 65536), make([]byte, 64)
	var segs [][]byte
	for {
		var n, seg int
		var from unix.Sockaddr
		var err error
		if gro {
			var oobn int
			n, oobn, from, err = sock.recvMsg(buf, oob)
			seg = groSize(oob[:oobn])
		} else {
			n, from, err = sock.recv(buf)
		}
		if err != nil {
			if err == unix.EINTR {
				continue
			}
			return err
		}
		v6 := addrOf(from).Is6()
		segs = splitSegments(segs[:0], buf[:n], seg)
		for _, d := range segs {
			h, err := parseHeader(d)
			if err != nil {
				continue
			}
			switch h.kind {
			case kindEcho:
				_ = sock.send(d, from)
			case kindData:
				now := time.Now().UnixNano()
				mu.Lock()
				u := uploads[h.session]
				if u == nil {
					u = &upload{FirstNs: now}
					uploads[h.session] = u
				}
				u.Packets++
				u.Bytes += uint64(len(d) + ipOverhead(v6))
				u.LastNs = now
				u.MaxSeq = max(u.MaxSeq, h.seq)
				mu.Unlock()
			case kindReport:
				mu.Lock()
				data, _ := json.Marshal(uploads[h.session])
				mu.Unlock()
				sendReport(sock, h.session, data, from)
			case kindDownload:
				req, err := parseDownloadRequest(d)
				if err != nil || req.Size < headerLen || req.Size > 9000 || req.DurationMs > 120000 || downloads[h.session] {
					continue
				}
				downloads[h.session] = true
				go sendDownload(sock, req, from, h.session, v6)
			}
		}
	}
}

// sendDownload sends one paced download; if the kernel refuses its GSO batches the client is
// told why instead of waiting for data that never comes.
func sendDownload(sock rawUDP, req downloadRequest, to unix.Sockaddr, session uint64, v6 bool) {
	size, batch := int(req.Size), int(req.GSO)
	send := func(b []byte) error { return sock.send(b, to) }
	err := checkGSO(batch, size)
	if batch > 1 {
		oob := gsoControl(size)
		send = func(b []byte) error { return gsoSendError(sock.sendMsg(b, oob, to), batch, size) }
	}
	var sent uint64
	if err == nil {
		sent, err = sendPaced(send, size, batch, req.BitsPerSecond, time.Duration(req.DurationMs)*time.Millisecond, v6, func(b []byte, seq uint64) {
			header{kind: kindData, session: session, seq: seq}.put(b)
		})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "probe: download:", err)
		data, _ := json.Marshal(downloadFailed{Error: err.Error()})
		sendReport(sock, session, data, to)
	}
	downloadSent(session, sent)
}

func sendReport(sock rawUDP, session uint64, data []byte, to unix.Sockaddr) {
	reply := make([]byte, headerLen+len(data))
	header{kind: kindReport, session: session}.put(reply)
	copy(reply[headerLen:], data)
	_ = sock.send(reply, to)
}
