// Command qtcheck runs the QUIC trace checks on one capture (a debugging aid for quictrace):
//
//	go run ./internal/quictrace/cmd/qtcheck [-dump] [-check a,b] trace.pcap [keys.log]
//
// It runs the one tshark pass in the wirelab/tshark image, prints each check's verdict and exits
// 1 if any selected check fails.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/capture"
	"github.com/wirelab/wirelab/internal/quiccheck"
	"github.com/wirelab/wirelab/internal/quictrace"
	"github.com/wirelab/wirelab/internal/tshark"
)

func main() {
	dump := flag.Bool("dump", false, "print every datagram, packet and HTTP/3 stream")
	only := flag.String("check", "", "comma-separated checks (default: all): "+strings.Join(quiccheck.Names(), ","))
	flag.Parse()
	if flag.NArg() < 1 || flag.NArg() > 2 {
		fmt.Fprintln(os.Stderr, "usage: qtcheck [-dump] [-check a,b] trace.pcap [keys.log]")
		os.Exit(2)
	}
	keys := ""
	if flag.NArg() == 2 {
		keys = flag.Arg(1)
	}
	// A cell's stored trace must still be the one its sim sealed; another pcap has no seal.
	dir, name := filepath.Split(flag.Arg(0))
	if _, err := os.Stat(filepath.Join(dir, capture.SealFile)); err == nil {
		if err := capture.Verify(dir, name); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	} else {
		fmt.Fprintf(os.Stderr, "# no %s beside %s: not a sealed wirelab trace, it may be incomplete\n", capture.SealFile, flag.Arg(0))
	}
	start := time.Now()
	t, err := quictrace.Load(context.Background(), &tshark.Tool{}, flag.Arg(0), keys, "")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	fmt.Printf("# %d datagrams, %d QUIC packets, %d stream halves, tshark+parse %.2fs\n",
		len(t.Datagrams), len(t.Packets()), len(t.H3Streams), time.Since(start).Seconds())
	if *dump {
		for _, d := range t.Datagrams {
			fmt.Printf("%d %s %s conn=%d udp=%d ecn=%d\n", d.Frame, d.Dir, d.Src, d.Conn, d.UDPLen, d.ECN)
			for _, p := range d.Packets {
				var ft, tls []string
				for _, f := range p.Frames {
					ft = append(ft, fmt.Sprintf("%x", f.Type))
				}
				for _, m := range p.TLS {
					tls = append(tls, fmt.Sprint(m.Type))
				}
				fmt.Printf("  %-9s v=0x%x dcid=%s scid=%s token=%d kp=%d payload=%d frames=[%s] tls=[%s]\n",
					p.Type, p.Version, p.DCID, p.SCID, p.TokenLen, p.KeyPhase, p.Payload, strings.Join(ft, " "), strings.Join(tls, " "))
			}
		}
		for _, s := range t.H3Streams {
			ut := "-"
			if s.UniType != nil {
				ut = fmt.Sprintf("0x%x", *s.UniType)
			}
			fmt.Printf("stream conn=%d id=%d %s uni=%v type=%s frames=%v bytes=%d\n", s.Conn, s.ID, s.Dir, s.Uni, ut, s.FrameTypes, s.Bytes)
		}
	}
	names := quiccheck.Names()
	if *only != "" {
		names = strings.Split(*only, ",")
	}
	code := 0
	for _, n := range names {
		c, ok := quiccheck.Lookup(n)
		if !ok {
			fmt.Fprintf(os.Stderr, "unknown check %q\n", n)
			os.Exit(2)
		}
		r := c.Run(t)
		fmt.Println(r)
		if !r.OK() {
			code = 1
		}
	}
	os.Exit(code)
}
