// Command go-x-net is an hq-interop (HTTP/0.9 over QUIC) client and server on golang.org/x/net/quic,
// behind the QUIC interop runner's endpoint contract (ROLE, TESTCASE, REQUESTS, SSLKEYLOGFILE,
// QLOGDIR; /www, /downloads, /certs, /logs).
//
//	go-x-net -check    exit 127 if ROLE/TESTCASE is not supported, 0 if it is (no network use)
//	go-x-net           run the role
//	go-x-net -version  the golang.org/x/net version compiled in
//
// Exit codes: 0 success, 1 error, 127 test case not supported.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
)

func main() {
	check := flag.Bool("check", false, "only decide whether ROLE/TESTCASE is supported (exit 0 or 127)")
	version := flag.Bool("version", false, "print the golang.org/x/net version and exit")
	flag.Parse()
	log.SetFlags(log.Ltime | log.Lmicroseconds)

	if *version {
		fmt.Println(moduleVersion("golang.org/x/net"))
		return
	}
	e := envFromOS()
	p, err := planFor(e.role, e.testcase)
	if err != nil {
		fmt.Fprintf(os.Stderr, "go-x-net: %v\n", err)
		if errors.Is(err, errUnsupported) {
			os.Exit(127)
		}
		os.Exit(1)
	}
	if *check {
		return
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if p.role == "server" {
		err = runServer(ctx, e, p)
	} else {
		err = runClient(ctx, e, p)
	}
	if err != nil {
		log.Printf("go-x-net %s: %v", p.role, err)
		os.Exit(1)
	}
	log.Printf("go-x-net %s: done", p.role)
}

// moduleVersion reads a dependency's version from the binary's build info.
func moduleVersion(path string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	for _, m := range bi.Deps {
		if m.Path == path {
			if m.Replace != nil {
				return m.Replace.Version
			}
			return m.Version
		}
	}
	return "unknown"
}
