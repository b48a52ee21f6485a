// Command probe measures what the sim does to traffic: round-trip time and loss with UDP echo
// probes, and achieved rate with paced UDP flows in either direction. Results are JSON.
//
//	probe server [-port 5201] [-gso N]
//	probe rtt  -server HOST:PORT [-count 10000] [-interval 1ms] [-size 64]
//	probe rate -server HOST:PORT -dir down|up [-rate 10Mbit|0] [-duration 5s] [-size 1200] [-gso N]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: probe server|rtt|rate [flags]")
		os.Exit(2)
	}
	fs := flag.NewFlagSet("probe "+os.Args[1], flag.ExitOnError)
	port := fs.Int("port", 5201, "server: UDP port")
	server := fs.String("server", "server4:5201", "client: server address")
	count := fs.Int("count", 10000, "rtt: probes to send")
	interval := fs.Duration("interval", time.Millisecond, "rtt: spacing of probes")
	size := fs.Int("size", 0, "datagram payload bytes (default 64 for rtt, 1200 for rate)")
	grace := fs.Duration("grace", 3*time.Second, "rtt: how long to wait for the last replies")
	dir := fs.String("dir", "down", "rate: down (server to client) or up (client to server)")
	rate := fs.String("rate", "0", "rate: IP-level send rate like 15Mbit; 0 = as fast as possible")
	duration := fs.Duration("duration", 5*time.Second, "rate: how long to send")
	gso := fs.Int("gso", 0, "rate: datagrams per sendmsg with UDP GSO, GRO on receive (0 = off); server: N > 1 turns on GRO for uploads")
	_ = fs.Parse(os.Args[2:])

	var res any
	var err error
	switch os.Args[1] {
	case "server":
		err = serve(*port, *gso)
	case "rtt":
		res, err = measureRTT(*server, *count, *interval, or(*size, 64), *grace)
	case "rate":
		var bps int64
		if bps, err = parseRate(*rate); err != nil {
			break
		}
		if *dir == "up" {
			res, err = measureUpload(*server, bps, *duration, or(*size, 1200), *gso)
		} else {
			res, err = measureDownload(*server, bps, *duration, or(*size, 1200), *gso)
		}
	default:
		err = fmt.Errorf("unknown mode %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "probe:", err)
		os.Exit(1)
	}
	_ = json.NewEncoder(os.Stdout).Encode(res)
}

func or(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// parseRate reads "15Mbit", "500kbit", "1Gbit" or a plain number of bits per second.
func parseRate(s string) (int64, error) {
	mult := 1.0
	for _, u := range []struct {
		suffix string
		mult   float64
	}{{"gbit", 1e9}, {"mbit", 1e6}, {"kbit", 1e3}, {"bit", 1}} {
		if strings.HasSuffix(strings.ToLower(s), u.suffix) {
			s, mult = s[:len(s)-len(u.suffix)], u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("rate %q: want a number with kbit/Mbit/Gbit", s)
	}
	return int64(v * mult), nil
}
