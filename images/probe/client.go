package main

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"slices"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

func newSession() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.BigEndian.Uint64(b[:])
}

func dial(server string) (*net.UDPConn, bool, error) {
	addr, err := net.ResolveUDPAddr("udp", server)
	if err != nil {
		return nil, false, err
	}
	conn, err := net.DialUDP("udp", nil, addr)
	if err != nil {
		return nil, false, err
	}
	_ = conn.SetReadBuffer(8 << 20)
	_ = conn.SetWriteBuffer(8 << 20)
	return conn, addr.IP.To4() == nil, nil
}

// rttResult is what `probe rtt` prints.
type rttResult struct {
	Sent     int     `json:"sent"`
	Received int     `json:"received"`
	Loss     float64 `json:"loss"` // round trip: lost either way
	P50Ms    float64 `json:"rtt_p50_ms"`
	P99Ms    float64 `json:"rtt_p99_ms"`
	MinMs    float64 `json:"rtt_min_ms"`
	MaxMs    float64 `json:"rtt_max_ms"`
	Dups     int     `json:"duplicates"`
	// LongestLossRun is the most consecutive probes lost: a blackhole shows as one long run.
	LongestLossRun int `json:"longest_loss_run"`
}

// measureRTT sends count echo probes every interval and waits grace for the last replies.
func measureRTT(server string, count int, interval time.Duration, size int, grace time.Duration) (rttResult, error) {
	conn, _, err := dial(server)
	if err != nil {
		return rttResult{}, err
	}
	defer conn.Close()
	session := newSession()
	sentAt := make([]int64, count)
	rtts := make([]time.Duration, 0, count)
	seen := make([]bool, count)
	res := rttResult{Sent: count}
	done := make(chan struct{})
	// Replies are timed by the kernel on arrival (SO_TIMESTAMPNS), so this process's own
	// scheduling delay is not counted as network delay.
	if raw, err := conn.SyscallConn(); err == nil {
		_ = raw.Control(func(fd uintptr) { _ = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_TIMESTAMPNS, 1) })
	}
	go func() {
		defer close(done)
		buf, oob := make([]byte, 65536), make([]byte, 128)
		for {
			n, oobn, _, _, err := conn.ReadMsgUDP(buf, oob)
			if err != nil {
				return
			}
			now := rxTime(oob[:oobn])
			h, err := parseHeader(buf[:n])
			if err != nil || h.kind != kindEcho || h.session != session || h.seq >= uint64(count) {
				continue
			}
			if seen[h.seq] {
				res.Dups++
				continue
			}
			seen[h.seq] = true
			rtts = append(rtts, time.Duration(now-int64(binary.BigEndian.Uint64(buf[headerLen:]))))
		}
	}()
	buf := make([]byte, max(size, headerLen+8))
	start := time.Now()
	for i := 0; i < count; i++ {
		time.Sleep(time.Until(start.Add(time.Duration(i) * interval)))
		header{kind: kindEcho, session: session, seq: uint64(i)}.put(buf)
		now := time.Now().UnixNano()
		sentAt[i] = now
		binary.BigEndian.PutUint64(buf[headerLen:], uint64(now))
		if _, err := conn.Write(buf); err != nil {
			return res, err
		}
	}
	time.Sleep(grace)
	_ = conn.SetReadDeadline(time.Now())
	<-done
	res.Received = len(rtts)
	run := 0
	for _, ok := range seen {
		if ok {
			run = 0
			continue
		}
		run++
		res.LongestLossRun = max(res.LongestLossRun, run)
	}
	res.Loss = 1 - float64(res.Received)/float64(count)
	if len(rtts) > 0 {
		slices.Sort(rtts)
		ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
		res.P50Ms, res.P99Ms = ms(percentile(rtts, 0.50)), ms(percentile(rtts, 0.99))
		res.MinMs, res.MaxMs = ms(rtts[0]), ms(rtts[len(rtts)-1])
	}
	return res, nil
}

// rxTime returns the kernel's receive timestamp from a control message, or now.
func rxTime(oob []byte) int64 {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err == nil {
		for _, m := range msgs {
			if m.Header.Level == unix.SOL_SOCKET && m.Header.Type == unix.SCM_TIMESTAMPNS && len(m.Data) >= 16 {
				ts := (*unix.Timespec)(unsafe.Pointer(&m.Data[0]))
				return ts.Nano()
			}
		}
	}
	return time.Now().UnixNano()
}

func percentile(sorted []time.Duration, q float64) time.Duration {
	i := int(q*float64(len(sorted))+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// rateResult is what `probe rate` prints. Rates are at the IP level over the span between the
// first and the last datagram received, so slow start of the sender does not dilute them.
type rateResult struct {
	Direction string  `json:"direction"`
	Packets   uint64  `json:"packets"`
	Bytes     uint64  `json:"ip_bytes"`
	Seconds   float64 `json:"seconds"`
	Mbps      float64 `json:"mbit_per_s"`
	PPS       float64 `json:"packets_per_s"`
	Sent      uint64  `json:"sent,omitempty"`
	GSOBatch  int     `json:"gso_batch,omitempty"` // datagrams per sendmsg when -gso was on
}

func measureDownload(server string, bps int64, duration time.Duration, size, gso int) (rateResult, error) {
	if err := checkGSO(gso, size); err != nil {
		return rateResult{}, err
	}
	conn, v6, err := dial(server)
	if err != nil {
		return rateResult{}, err
	}
	defer conn.Close()
	return download(conn, v6, downloadRequest{BitsPerSecond: bps, DurationMs: duration.Milliseconds(), Size: int64(size), GSO: int64(gso)})
}

// download asks the server for the flow r describes and counts what arrives on conn. With GSO
// the reads are coalesced by GRO and split back into datagrams, so the counts mean the same.
func download(conn *net.UDPConn, v6 bool, r downloadRequest) (rateResult, error) {
	res := rateResult{Direction: "to-client"}
	gro := r.GSO > 1
	if gro {
		if err := connGRO(conn); err != nil {
			return res, fmt.Errorf("-gso %d: enabling UDP_GRO: %w", r.GSO, err)
		}
		res.GSOBatch = int(r.GSO)
	}
	session := newSession()
	req := make([]byte, r.wireLen())
	header{kind: kindDownload, session: session}.put(req)
	r.put(req)
	var first, last time.Time
	buf, oob := make([]byte, 65536), make([]byte, 64)
	var segs [][]byte
	deadline := time.Now().Add(time.Duration(r.DurationMs)*time.Millisecond + 5*time.Second)
	for attempt := 0; ; attempt++ {
		if res.Packets == 0 { // the request itself may be lost on a lossy link: repeat it
			if attempt > 5 {
				return res, errors.New("no data from the server (request lost 6 times?)")
			}
			_, _ = conn.Write(req)
		}
		_ = conn.SetReadDeadline(time.Now().Add(time.Second))
		var n, oobn, seg int
		var err error
		if gro {
			n, oobn, _, _, err = conn.ReadMsgUDP(buf, oob)
			seg = groSize(oob[:oobn])
		} else {
			n, err = conn.Read(buf)
		}
		if err != nil {
			if res.Packets > 0 || time.Now().After(deadline) {
				break
			}
			continue
		}
		segs = splitSegments(segs[:0], buf[:n], seg)
		for _, d := range segs {
			h, err := parseHeader(d)
			if err != nil || h.session != session {
				continue
			}
			if h.kind == kindReport { // the server could not send: say why rather than time out
				var f downloadFailed
				if json.Unmarshal(d[headerLen:], &f) == nil && f.Error != "" {
					return res, fmt.Errorf("server: %s", f.Error)
				}
			}
			if h.kind != kindData {
				continue
			}
			now := time.Now()
			if res.Packets == 0 {
				first = now
			}
			last = now
			res.Packets++
			res.Bytes += uint64(len(d) + ipOverhead(v6))
		}
	}
	res.fill(first, last)
	return res, nil
}

func measureUpload(server string, bps int64, duration time.Duration, size, gso int) (rateResult, error) {
	if err := checkGSO(gso, size); err != nil {
		return rateResult{}, err
	}
	conn, v6, err := dial(server)
	if err != nil {
		return rateResult{}, err
	}
	defer conn.Close()
	session := newSession()
	send := func(b []byte) error { _, err := conn.Write(b); return err }
	if gso > 1 {
		oob := gsoControl(size)
		send = func(b []byte) error { _, _, err := conn.WriteMsgUDP(b, oob, nil); return gsoSendError(err, gso, size) }
	}
	sent, err := sendPaced(send, size, gso, bps, duration, v6, func(b []byte, seq uint64) {
		header{kind: kindData, session: session, seq: seq}.put(b)
	})
	if err != nil {
		return rateResult{}, err
	}
	time.Sleep(time.Second) // let the queue drain
	req := make([]byte, headerLen)
	header{kind: kindReport, session: session}.put(req)
	buf := make([]byte, 65536)
	for attempt := 0; attempt < 10; attempt++ {
		_, _ = conn.Write(req)
		_ = conn.SetReadDeadline(time.Now().Add(time.Second))
		n, err := conn.Read(buf)
		if err != nil {
			continue
		}
		h, err := parseHeader(buf[:n])
		if err != nil || h.kind != kindReport || h.session != session {
			continue
		}
		var u upload
		if err := json.Unmarshal(buf[headerLen:n], &u); err != nil {
			return rateResult{}, fmt.Errorf("report: %v", err)
		}
		res := rateResult{Direction: "to-server", Packets: u.Packets, Bytes: u.Bytes, Sent: sent}
		if gso > 1 {
			res.GSOBatch = gso
		}
		res.fill(time.Unix(0, u.FirstNs), time.Unix(0, u.LastNs))
		return res, nil
	}
	return rateResult{}, errors.New("no report from the server")
}

func (r *rateResult) fill(first, last time.Time) {
	r.Seconds = last.Sub(first).Seconds()
	if r.Seconds > 0 && r.Packets > 1 {
		// n packets span n-1 inter-arrival gaps: count the bytes of the gaps only.
		perPacket := float64(r.Bytes) / float64(r.Packets)
		r.Mbps = (float64(r.Bytes) - perPacket) * 8 / r.Seconds / 1e6
		r.PPS = float64(r.Packets-1) / r.Seconds
	}
}
