package quicinterop

import "testing"

func TestCrossTrafficRateFromIperfLog(t *testing.T) {
	log := []byte(`iperf_server-1  | Accepted connection from 198.18.104.90, port 41148
iperf_server-1  | [  5]   0.00-5.00   sec  2.50 MBytes  4.19 Mbits/sec    3    120 KBytes
iperf_server-1  | [  5]   5.00-10.00  sec  3.00 MBytes  5.03 Mbits/sec    0    130 KBytes
iperf_server-1  | [  5]  10.00-12.00  sec   200 KBytes   819 Kbits/sec    0    130 KBytes
iperf_server-1  | [  5]   0.00-12.00  sec  5.70 MBytes  3.98 Mbits/sec   3             sender
`)
	got, err := crossTrafficKbps(log)
	if err != nil || int(got) != (4190+5030+819)/3 {
		t.Fatalf("got %.1f, %v", got, err)
	}
	// The flow never started (e.g. iperf3 could not set its congestion control): no number.
	if _, err := crossTrafficKbps([]byte("iperf3: error - unable to set TCP_CONGESTION\n")); err == nil {
		t.Fatal("want an error without interval lines")
	}
	if _, err := crossTrafficKbps([]byte("[  5]   0.00-5.00   sec  0.00 Bytes  0.00 bits/sec  0  1 KBytes\n")); err == nil {
		t.Fatal("want an error for a flow that carried nothing")
	}
}
