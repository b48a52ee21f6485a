package main

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func TestParseRate(t *testing.T) {
	for in, want := range map[string]int64{"15Mbit": 15e6, "500kbit": 5e5, "1Gbit": 1e9, "1200": 1200, "0": 0, "12.5Mbit": 12.5e6} {
		got, err := parseRate(in)
		if err != nil || got != want {
			t.Errorf("parseRate(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"fast", "-5Mbit", "Mbit"} {
		if _, err := parseRate(bad); err == nil {
			t.Errorf("parseRate(%q) accepted", bad)
		}
	}
}

func TestHeaderRoundTrip(t *testing.T) {
	b := make([]byte, headerLen+24)
	header{kind: kindDownload, session: 42, seq: 7}.put(b)
	downloadRequest{BitsPerSecond: 10e6, DurationMs: 4000, Size: 1200}.put(b)
	h, err := parseHeader(b)
	if err != nil || h.kind != kindDownload || h.session != 42 || h.seq != 7 {
		t.Fatalf("%+v %v", h, err)
	}
	r, err := parseDownloadRequest(b)
	if err != nil || r.BitsPerSecond != 10e6 || r.DurationMs != 4000 || r.Size != 1200 {
		t.Fatalf("%+v %v", r, err)
	}
	if _, err := parseHeader(b[:5]); err == nil {
		t.Fatal("short header accepted")
	}
}

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	if percentile(d, 0.5) != 50*time.Millisecond || percentile(d, 0.99) != 99*time.Millisecond {
		t.Fatalf("p50 %v p99 %v", percentile(d, 0.5), percentile(d, 0.99))
	}
}

func TestRateFillCountsGapsOnly(t *testing.T) {
	r := rateResult{Packets: 11, Bytes: 11 * 1250}
	start := time.Unix(0, 0)
	r.fill(start, start.Add(10*time.Millisecond)) // 10 gaps of 1250 B in 10 ms = 10 Mbit/s
	if r.Mbps < 9.99 || r.Mbps > 10.01 {
		t.Fatalf("%.3f Mbit/s", r.Mbps)
	}
}

func TestDownloadRequestGSO(t *testing.T) {
	in := downloadRequest{BitsPerSecond: 1e9, DurationMs: 3000, Size: 1472, GSO: 32}
	b := make([]byte, in.wireLen())
	in.put(b)
	if len(b) != headerLen+32 {
		t.Fatalf("GSO request is %d bytes", len(b))
	}
	if r, err := parseDownloadRequest(b); err != nil || r != in {
		t.Fatalf("%+v %v", r, err)
	}
	// A request of the old length (an old client, or no -gso) means no GSO, and a request
	// without GSO is still sent at the old length.
	if r, err := parseDownloadRequest(b[:headerLen+24]); err != nil || r.GSO != 0 || r.Size != 1472 {
		t.Fatalf("old-length request: %+v %v", r, err)
	}
	if n := (downloadRequest{Size: 1200, GSO: 1}).wireLen(); n != headerLen+24 {
		t.Fatalf("non-GSO request is %d bytes", n)
	}
}

func TestSplitSegments(t *testing.T) {
	b := make([]byte, 350) // 3.5 segments of 100
	for i := range b {
		b[i] = byte(i / 100)
	}
	segs := splitSegments(nil, b, 100)
	if len(segs) != 4 || len(segs[3]) != 50 {
		t.Fatalf("%d segments, last %d bytes", len(segs), len(segs[len(segs)-1]))
	}
	for i, s := range segs {
		if !bytes.Equal(s, b[i*100:min(i*100+100, 350)]) || cap(s) > len(b)-i*100 {
			t.Fatalf("segment %d wrong", i)
		}
	}
	if segs := splitSegments(nil, b, 0); len(segs) != 1 || len(segs[0]) != 350 {
		t.Fatal("a read without a GRO size is one datagram")
	}
	if groSize(nil) != 0 {
		t.Fatal("no control message, no segment size")
	}
}

func TestCheckGSO(t *testing.T) {
	for _, ok := range [][2]int{{0, 1472}, {1, 1472}, {32, 1472}, {44, 1472}, {64, 1000}} {
		if err := checkGSO(ok[0], ok[1]); err != nil {
			t.Errorf("%v: %v", ok, err)
		}
	}
	for _, bad := range [][2]int{{-1, 1472}, {45, 1472}, {65, 100}} {
		if err := checkGSO(bad[0], bad[1]); err == nil || !strings.Contains(err.Error(), "-gso") {
			t.Errorf("%v: %v", bad, err)
		}
	}
}

// startServer runs the server loop with GRO on a random loopback port.
func startServer(t *testing.T) int {
	sock, err := listenRawUDP(0)
	if err != nil {
		t.Fatal(err)
	}
	if err := enableGRO(int(sock)); err != nil {
		t.Fatal(err)
	}
	sa, err := unix.Getsockname(int(sock))
	if err != nil {
		t.Fatal(err)
	}
	go func() { // blocks in recvfrom until the test binary exits
		runtime.LockOSThread()
		_ = serveOn(sock, true)
	}()
	return sa.(*unix.SockaddrInet6).Port
}

// udpDrops reads the kernel's receive-drop count of the UDP socket bound to port, so a test
// over loopback can tell "dropped by a full buffer" from "not counted". The kernel counts a
// dropped GSO batch as one drop, so drops stand for 1..batch datagrams each.
func udpDrops(t *testing.T, port int) uint64 {
	suffix := fmt.Sprintf(":%04X", port)
	for _, f := range []string{"/proc/net/udp", "/proc/net/udp6"} {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n")[1:] {
			fields := strings.Fields(line)
			if len(fields) > 12 && strings.HasSuffix(fields[1], suffix) {
				d, _ := strconv.ParseUint(fields[len(fields)-1], 10, 64)
				return d
			}
		}
	}
	t.Logf("no drop counter for port %d", port)
	return 0
}

// allCounted says the receiver counted every datagram the kernel did not drop.
func allCounted(counted, sent, drops uint64, batch uint64) bool {
	return sent > 0 && counted+drops <= sent && sent <= counted+drops*batch
}

func TestGSOUpload(t *testing.T) {
	port := startServer(t)
	for _, bps := range []int64{0, 300e6} { // unpaced: full batches; paced: as many as are due
		before := udpDrops(t, port)
		res, err := measureUpload(fmt.Sprintf("127.0.0.1:%d", port), bps, 300*time.Millisecond, 1472, 32)
		if err != nil {
			t.Fatal(err)
		}
		drops := udpDrops(t, port) - before
		t.Logf("bps %d: %+v, %d dropped by the kernel", bps, res, drops)
		if !allCounted(res.Packets, res.Sent, drops, 32) || res.GSOBatch != 32 || res.Bytes != res.Packets*1500 {
			t.Fatalf("bps %d: sent %d, counted %d + %d dropped", bps, res.Sent, res.Packets, drops)
		}
		if bps == 0 && res.Sent%32 != 0 {
			t.Fatalf("unpaced upload sent %d datagrams: not whole batches", res.Sent)
		}
	}
}

func TestGSODownload(t *testing.T) {
	port := startServer(t)
	sent := make(chan uint64, 1)
	downloadSent = func(_, n uint64) { sent <- n }
	defer func() { downloadSent = func(_, _ uint64) {} }()
	conn, v6, err := dial(fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	res, err := download(conn, v6, downloadRequest{DurationMs: 300, Size: 1472, GSO: 32})
	if err != nil {
		t.Fatal(err)
	}
	drops := udpDrops(t, conn.LocalAddr().(*net.UDPAddr).Port)
	var n uint64
	select {
	case n = <-sent:
	case <-time.After(5 * time.Second):
		t.Fatal("the server never finished the download")
	}
	t.Logf("%+v, server sent %d, %d dropped by the kernel", res, n, drops)
	if n%32 != 0 || !allCounted(res.Packets, n, drops, 32) || res.GSOBatch != 32 || res.Bytes != res.Packets*1500 {
		t.Fatalf("server sent %d, client counted %d + %d dropped", n, res.Packets, drops)
	}
}

func TestGSORefusalStopsSender(t *testing.T) {
	refused := &net.OpError{Op: "write", Err: os.NewSyscallError("sendmsg", unix.EINVAL)}
	calls := 0
	send := func(b []byte) error { calls++; return gsoSendError(refused, 32, 1472) }
	_, err := sendPaced(send, 1472, 32, 0, time.Second, false, func([]byte, uint64) {})
	if err == nil || calls != 1 || !strings.Contains(err.Error(), "-gso 32") {
		t.Fatalf("%d sends, %v", calls, err)
	}
	busy := &net.OpError{Op: "write", Err: os.NewSyscallError("sendmsg", unix.ENOBUFS)}
	if err := gsoSendError(busy, 32, 1472); errors.As(err, new(*gsoRefused)) {
		t.Fatal("ENOBUFS must back off, not stop the sender")
	}
}
