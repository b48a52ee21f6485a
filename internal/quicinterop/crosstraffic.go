package quicinterop

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// iperfInterval matches iperf3's per-interval lines ("[  5]   5.00-10.00  sec  2.75 MBytes
// 4.61 Mbits/sec  12  98.0 KBytes"), not its end-of-test "sender"/"receiver" totals.
var (
	iperfInterval = regexp.MustCompile(`(?m)^.*\[\s*\d+\]\s+[\d.]+-[\d.]+\s+sec\s+[\d.]+\s+[KMG]?Bytes\s+([\d.]+)\s+([KMG]?)bits/sec(.*)$`)
	iperfTotal    = regexp.MustCompile(`sender|receiver`)
)

// crossTrafficKbps is the mean rate of the competing TCP flow over iperf3's intervals, from the
// iperf server's log. An error means the flow never carried data: a crosstraffic measurement
// without cross traffic would be a plain goodput run.
func crossTrafficKbps(log []byte) (float64, error) {
	var sum float64
	n := 0
	for _, m := range iperfInterval.FindAllSubmatch(log, -1) {
		if iperfTotal.Match(m[3]) {
			continue
		}
		v, _ := strconv.ParseFloat(string(m[1]), 64)
		v *= map[string]float64{"": 1e-3, "K": 1, "M": 1e3, "G": 1e6}[string(m[2])]
		sum += v
		n++
	}
	if n == 0 || sum == 0 {
		return 0, fmt.Errorf("cross traffic: the TCP flow carried no data (see iperf_server in output.txt)")
	}
	return sum / float64(n), nil
}

// crossCC picks the competing flow's congestion control: WIRELAB_CROSS_CC if set (to compare
// with bbr or reno, say), else cubic as upstream if the host lets unprivileged sockets (the
// containers') choose it, else "" (the kernel's default, named in the returned note). The
// allowed list is global to the kernel the engine runs on.
func crossCC() (cc, note string) {
	if cc := os.Getenv("WIRELAB_CROSS_CC"); cc != "" {
		return cc, cc + ", from WIRELAB_CROSS_CC"
	}
	allowed, _ := os.ReadFile("/proc/sys/net/ipv4/tcp_allowed_congestion_control")
	for _, a := range strings.Fields(string(allowed)) {
		if a == "cubic" {
			return "cubic", "cubic"
		}
	}
	def, _ := os.ReadFile("/proc/sys/net/ipv4/tcp_congestion_control")
	return "", strings.TrimSpace(string(def)) + ", the kernel default: cubic is not in the host's net.ipv4.tcp_allowed_congestion_control"
}
