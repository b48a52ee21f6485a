// Command go-h2 is the h2 suite's Go server: net/http's built-in HTTP/2 with every default left as
// Go ships it, on TLS over TCP 443 with ALPN h2 and http/1.1. It serves /www by path and answers
// POST/PUT /upload with the number of body bytes received. It has only the server role, only
// TESTCASE=h2.
//
//	go-h2 -check    exit 0 if ROLE/TESTCASE is supported, 127 if not (no network use)
//	go-h2           serve until SIGTERM
//	go-h2 -version  the Go release it was compiled with (its net/http is the implementation)
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
)

func main() {
	check := flag.Bool("check", false, "only decide whether ROLE/TESTCASE is supported (exit 0 or 127)")
	version := flag.Bool("version", false, "print the Go release and exit")
	flag.Parse()
	log.SetFlags(log.Ltime | log.Lmicroseconds)

	if *version {
		fmt.Println(strings.TrimPrefix(runtime.Version(), "go"))
		return
	}
	if code, msg := support(os.Getenv("ROLE"), os.Getenv("TESTCASE")); code != 0 {
		fmt.Fprintln(os.Stderr, "go-h2:", msg)
		os.Exit(code)
	}
	if *check {
		return
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	// "tcp" with no host: one dual-stack socket where the container has IPv6, IPv4 otherwise.
	ln, err := net.Listen("tcp", ":443")
	if err != nil {
		log.Fatalf("go-h2: %v", err)
	}
	c := config{www: "/www", certs: "/certs", keylog: os.Getenv("SSLKEYLOGFILE")}
	if err := serve(ctx, ln, c); err != nil {
		log.Fatalf("go-h2: %v", err)
	}
	log.Print("go-h2: stopped")
}

// support maps ROLE/TESTCASE onto an exit code: 0 supported, 127 not supported (the runner's
// code), 1 a ROLE that is neither client nor server.
func support(role, testcase string) (int, string) {
	switch {
	case role == "client":
		return 127, "no client role (server only)"
	case role != "server":
		return 1, fmt.Sprintf("ROLE must be client or server (got %q)", role)
	case testcase != "h2":
		return 127, fmt.Sprintf("server: test case %q not supported (h2 only)", testcase)
	}
	return 0, ""
}
