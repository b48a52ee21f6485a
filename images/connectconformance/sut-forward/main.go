// Command sut-forward lets connectrpc.com/conformance's test runner (connectconformance --mode
// server) test a whole gRPC-web conversion chain as its "server under test", and runs the
// module's reference server behind that chain.
//
// Run with no arguments (the command connectconformance starts for each server configuration),
// it reads the size-prefixed connectrpc.conformance.v1.ServerCompatRequest from stdin, checks that
// the chain offers what it asks for, and answers a size-prefixed ServerCompatResponse naming the
// chain's entry point; it starts nothing, and waits for SIGTERM (stdin is closed right after the
// request, so its end means nothing):
//
//   - gRPC over HTTP/2 without TLS (h2c, prior knowledge) -> $GRPC_TARGET (host:port)
//   - gRPC-web over HTTP/1.1 without TLS                   -> $GRPCWEB_TARGET (host:port)
//   - anything else (TLS, client certificates, Connect, gRPC-web over HTTP/2, HTTP/3, a
//     message receive limit other than the server's): exit 1 with the reason on stderr, which
//     connectconformance reports for that configuration's cases.
//
// The target's host is resolved to an IPv4 address (the reference clients would otherwise ask
// DNS for every call) and must accept TCP before the answer is written.
//
// `sut-forward serve --listen :443 --referenceserver PATH` runs the reference server behind the
// chain: the module's cmd/referenceserver serves only one HTTP version per process (HTTP/1.1, or
// HTTP/2 without HTTP/1.1 when told HTTP_VERSION_2), so two of them are started on loopback
// (each fed its ServerCompatRequest on stdin, as the runner would), and every accepted
// connection is relayed byte for byte to the h2c one if it opens with the HTTP/2 connection
// preface, to the HTTP/1.1 one otherwise.
//
// `sut-forward run --conf A.yaml [--conf B.yaml ...] -- [connectconformance flags]` runs
// connectconformance --mode server with sut-forward as the server under test once per config,
// ends runs that a call the chain never completes would stall, and prints the totals and the
// failing case names (run.go).
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// Values of connectrpc.conformance.v1's enums Protocol and HTTPVersion (config.proto).
const (
	protocolConnect = 1
	protocolGRPC    = 2
	protocolGRPCWeb = 3
	httpVersion1    = 1
	httpVersion2    = 2
	httpVersion3    = 3
)

// serverReceiveLimit is the message receive limit connectconformance v1.0.7 always asks a server
// under test for (serverReceiveLimit in internal/app/connectconformance/test_case_library.go);
// `serve` starts the reference server with it, and the forwarder refuses any other.
const serverReceiveLimit = 200 * 1024

// maxMessage bounds the size-prefixed messages read from a pipe.
const maxMessage = 1 << 20

// compatRequest holds the fields of ServerCompatRequest (server_compat.proto) that matter here.
type compatRequest struct {
	Protocol            uint64 // field 1, enum Protocol
	HTTPVersion         uint64 // field 2, enum HTTPVersion
	UseTLS              bool   // field 4
	ClientTLSCert       []byte // field 5
	MessageReceiveLimit uint64 // field 6
	HasServerCreds      bool   // field 7, TLSCreds
}

func protocolName(p uint64) string {
	switch p {
	case protocolConnect:
		return "PROTOCOL_CONNECT"
	case protocolGRPC:
		return "PROTOCOL_GRPC"
	case protocolGRPCWeb:
		return "PROTOCOL_GRPC_WEB"
	}
	return "PROTOCOL(" + strconv.FormatUint(p, 10) + ")"
}

func versionName(v uint64) string {
	switch v {
	case httpVersion1, httpVersion2, httpVersion3:
		return "HTTP_VERSION_" + strconv.FormatUint(v, 10)
	}
	return "HTTP_VERSION(" + strconv.FormatUint(v, 10) + ")"
}

func (r compatRequest) String() string {
	return fmt.Sprintf("{%s, %s, TLS:%v}", protocolName(r.Protocol), versionName(r.HTTPVersion), r.UseTLS)
}

// marshal encodes r as ServerCompatRequest (what `serve` feeds the reference server).
func (r compatRequest) marshal() []byte {
	var b []byte
	if r.Protocol != 0 {
		b = protowire.AppendTag(b, 1, protowire.VarintType)
		b = protowire.AppendVarint(b, r.Protocol)
	}
	if r.HTTPVersion != 0 {
		b = protowire.AppendTag(b, 2, protowire.VarintType)
		b = protowire.AppendVarint(b, r.HTTPVersion)
	}
	if r.UseTLS {
		b = protowire.AppendTag(b, 4, protowire.VarintType)
		b = protowire.AppendVarint(b, 1)
	}
	if len(r.ClientTLSCert) > 0 {
		b = protowire.AppendTag(b, 5, protowire.BytesType)
		b = protowire.AppendBytes(b, r.ClientTLSCert)
	}
	if r.MessageReceiveLimit != 0 {
		b = protowire.AppendTag(b, 6, protowire.VarintType)
		b = protowire.AppendVarint(b, r.MessageReceiveLimit)
	}
	return b
}

func parseCompatRequest(b []byte) (compatRequest, error) {
	var r compatRequest
	err := eachField(b, func(num protowire.Number, typ protowire.Type, v uint64, bs []byte) {
		switch {
		case typ == protowire.VarintType && num == 1:
			r.Protocol = v
		case typ == protowire.VarintType && num == 2:
			r.HTTPVersion = v
		case typ == protowire.VarintType && num == 4:
			r.UseTLS = v != 0
		case typ == protowire.VarintType && num == 6:
			r.MessageReceiveLimit = v
		case typ == protowire.BytesType && num == 5:
			r.ClientTLSCert = append([]byte(nil), bs...)
		case typ == protowire.BytesType && num == 7:
			r.HasServerCreds = true
		}
	})
	return r, err
}

// eachField walks a protobuf message's fields, handing f each one's number and type with its
// value (varint, or bytes for length-delimited fields); other wire types are skipped.
func eachField(b []byte, f func(num protowire.Number, typ protowire.Type, v uint64, bs []byte)) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		switch typ {
		case protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return protowire.ParseError(n)
			}
			f(num, typ, v, nil)
			b = b[n:]
		case protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return protowire.ParseError(n)
			}
			f(num, typ, 0, v)
			b = b[n:]
		default:
			n := protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return protowire.ParseError(n)
			}
			b = b[n:]
		}
	}
	return nil
}

// compatResponse is ServerCompatResponse: host = 1, port = 2 (pem_cert = 3 stays empty: no TLS).
type compatResponse struct {
	Host string
	Port uint64
}

func (r compatResponse) marshal() []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendString(b, r.Host)
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	return protowire.AppendVarint(b, r.Port)
}

func parseCompatResponse(b []byte) (compatResponse, error) {
	var r compatResponse
	err := eachField(b, func(num protowire.Number, typ protowire.Type, v uint64, bs []byte) {
		switch {
		case num == 1 && typ == protowire.BytesType:
			r.Host = string(bs)
		case num == 2 && typ == protowire.VarintType:
			r.Port = v
		}
	})
	return r, err
}

// readDelimited reads one message prefixed with its 32-bit big-endian length.
func readDelimited(r io.Reader) ([]byte, error) {
	var prefix [4]byte
	if _, err := io.ReadFull(r, prefix[:]); err != nil {
		return nil, err
	}
	size := binary.BigEndian.Uint32(prefix[:])
	if size > maxMessage {
		return nil, fmt.Errorf("message of %d bytes is over the %d-byte limit", size, maxMessage)
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(r, b); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return b, nil
}

func writeDelimited(w io.Writer, msg []byte) error {
	b := binary.BigEndian.AppendUint32(make([]byte, 0, 4+len(msg)), uint32(len(msg)))
	_, err := w.Write(append(b, msg...))
	return err
}

func main() {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "serve":
			os.Exit(serve(os.Args[2:], os.Stderr))
		case "run":
			os.Exit(runAll(os.Args[2:], os.Stdout, os.Stderr))
		}
	}
	os.Exit(forward(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}

// targetFor says which chain entry serves req: the name of the variable holding it, or why none.
func targetFor(req compatRequest) (string, error) {
	switch {
	case req.UseTLS || req.HasServerCreds:
		return "", errors.New("the chain offers no TLS (its gRPC entry is h2c, its gRPC-web entry plain HTTP/1.1)")
	case len(req.ClientTLSCert) > 0:
		return "", errors.New("the chain offers no TLS client certificates")
	case req.MessageReceiveLimit != 0 && req.MessageReceiveLimit != serverReceiveLimit:
		return "", fmt.Errorf("message receive limit %d asked, but the server behind the chain enforces %d", req.MessageReceiveLimit, serverReceiveLimit)
	case req.Protocol == protocolGRPC && req.HTTPVersion == httpVersion2:
		return "GRPC_TARGET", nil
	case req.Protocol == protocolGRPCWeb && req.HTTPVersion == httpVersion1:
		return "GRPCWEB_TARGET", nil
	}
	return "", errors.New("the chain offers gRPC over HTTP/2 (h2c) and gRPC-web over HTTP/1.1 only; restrict the config's features to those")
}

// forward is the server under test: it names the chain entry for the request and waits.
func forward(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("sut-forward", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dialTimeout := fs.Duration("dial-timeout", 5*time.Second, "how long the target may take to accept TCP")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "sut-forward: "+format+"\n", a...)
		return 1
	}
	msg, err := readDelimited(stdin)
	if err != nil {
		return fail("reading the ServerCompatRequest from stdin: %v", err)
	}
	req, err := parseCompatRequest(msg)
	if err != nil {
		return fail("decoding the ServerCompatRequest: %v", err)
	}
	variable, err := targetFor(req)
	if err != nil {
		return fail("cannot serve %s: %v", req, err)
	}
	target := getenv(variable)
	host, portStr, err := net.SplitHostPort(target)
	if err != nil {
		return fail("%s=%q must be host:port: %v", variable, target, err)
	}
	port, err := strconv.ParseUint(portStr, 10, 16)
	if err != nil || port == 0 {
		return fail("%s=%q: bad port", variable, target)
	}
	ip, err := resolve(host)
	if err != nil {
		return fail("%s=%q: %v", variable, target, err)
	}
	addr := net.JoinHostPort(ip, portStr)
	conn, err := net.DialTimeout("tcp", addr, *dialTimeout)
	if err != nil {
		return fail("%s=%q (%s) does not accept TCP: %v", variable, target, addr, err)
	}
	_ = conn.Close()
	// Signals first: connectconformance sends SIGTERM once its cases are done, maybe right after
	// reading the answer.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	if err := writeDelimited(stdout, compatResponse{Host: ip, Port: port}.marshal()); err != nil {
		return fail("writing the ServerCompatResponse: %v", err)
	}
	fmt.Fprintf(stderr, "sut-forward: %s -> %s=%s (%s)\n", req, variable, target, addr)
	// Also end when the runner is gone without signalling (killed): nothing else would.
	parent := os.Getppid()
	orphaned := make(chan struct{})
	go func() {
		for os.Getppid() == parent {
			time.Sleep(time.Second)
		}
		close(orphaned)
	}()
	select {
	case <-sig:
	case <-orphaned:
	}
	return 0
}

// resolve returns host's first IPv4 address (or its first address, or host if it is one).
func resolve(host string) (string, error) {
	if ip := net.ParseIP(host); ip != nil {
		return ip.String(), nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ips, err := net.DefaultResolver.LookupIP(ctx, "ip", host)
	if err != nil {
		return "", err
	}
	for _, ip := range ips {
		if ip4 := ip.To4(); ip4 != nil {
			return ip4.String(), nil
		}
	}
	if len(ips) == 0 {
		return "", fmt.Errorf("%s has no address", host)
	}
	return ips[0].String(), nil
}

// h2Preface is the HTTP/2 client connection preface (RFC 9113 section 3.4).
var h2Preface = []byte("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")

// serve runs the reference server behind the chain (see the package comment).
func serve(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("sut-forward serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", ":443", "address to serve h2c (prior knowledge) and HTTP/1.1 on")
	refserver := fs.String("referenceserver", "referenceserver", "connectrpc.com/conformance's cmd/referenceserver")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintf(stderr, "sut-forward serve: %v\n", err)
		return 1
	}
	defer ln.Close()
	done := make(chan string, 2)
	var backends [3]string // by HTTP version
	var children []*exec.Cmd
	defer func() {
		for _, c := range children {
			_ = c.Process.Signal(syscall.SIGTERM)
		}
		for _, c := range children {
			_ = c.Wait()
		}
	}()
	for _, v := range []uint64{httpVersion1, httpVersion2} {
		// The protocol only names what the server must support at least; the reference server
		// serves Connect, gRPC and gRPC-web on either HTTP version.
		proto := uint64(protocolGRPCWeb)
		if v == httpVersion2 {
			proto = protocolGRPC
		}
		req := compatRequest{Protocol: proto, HTTPVersion: v, MessageReceiveLimit: serverReceiveLimit}
		cmd, addr, err := startReference(*refserver, req, stderr, done)
		if cmd != nil {
			children = append(children, cmd)
		}
		if err != nil {
			fmt.Fprintf(stderr, "sut-forward serve: reference server %s: %v\n", req, err)
			return 1
		}
		backends[v] = addr
		fmt.Fprintf(stderr, "sut-forward serve: reference server %s on %s\n", req, addr)
	}
	fmt.Fprintf(stderr, "sut-forward serve: %s: h2c -> %s, HTTP/1.1 -> %s\n", ln.Addr(), backends[httpVersion2], backends[httpVersion1])
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				if ctx.Err() == nil {
					done <- "accept: " + err.Error()
				}
				return
			}
			go relay(c, backends[httpVersion2], backends[httpVersion1], stderr)
		}
	}()
	select {
	case <-ctx.Done():
		return 0
	case why := <-done:
		fmt.Fprintf(stderr, "sut-forward serve: %s\n", why)
		return 1
	}
}

// startReference starts one reference server on a loopback port and returns its address; done
// hears when it ends.
func startReference(path string, req compatRequest, stderr io.Writer, done chan<- string) (*exec.Cmd, string, error) {
	cmd := exec.Command(path, "-bind", "127.0.0.1", "-port", "0")
	var in bytes.Buffer
	if err := writeDelimited(&in, req.marshal()); err != nil {
		return nil, "", err
	}
	cmd.Stdin = &in
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, "", err
	}
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	type answer struct {
		msg []byte
		err error
	}
	ch := make(chan answer, 1)
	go func() {
		msg, err := readDelimited(out)
		ch <- answer{msg, err}
		_, _ = io.Copy(io.Discard, out)
	}()
	var a answer
	select {
	case a = <-ch:
	case <-time.After(15 * time.Second):
		a.err = errors.New("no ServerCompatResponse within 15 s")
	}
	if a.err != nil {
		_ = cmd.Process.Kill()
		return cmd, "", a.err
	}
	resp, err := parseCompatResponse(a.msg)
	if err != nil {
		_ = cmd.Process.Kill()
		return cmd, "", err
	}
	go func() {
		err := cmd.Wait()
		done <- fmt.Sprintf("reference server %s ended: %v", req, err)
	}()
	return cmd, net.JoinHostPort(resp.Host, strconv.FormatUint(resp.Port, 10)), nil
}

// relay sends c to the h2c backend if it opens with the HTTP/2 preface, to the HTTP/1.1 one
// otherwise, and copies bytes both ways, passing half-closes on.
func relay(c net.Conn, h2, h1 string, stderr io.Writer) {
	defer c.Close()
	br := bufio.NewReaderSize(c, 64)
	backend := h2
	for n := 1; n <= len(h2Preface); n++ {
		got, err := br.Peek(n)
		if !bytes.Equal(got, h2Preface[:len(got)]) {
			backend = h1
			break
		}
		if err != nil {
			return // closed before saying anything that could be routed
		}
	}
	up, err := net.Dial("tcp", backend)
	if err != nil {
		fmt.Fprintf(stderr, "sut-forward serve: %v\n", err)
		return
	}
	defer up.Close()
	var wg sync.WaitGroup
	wg.Add(2)
	pipe := func(dst, src net.Conn, r io.Reader) {
		defer wg.Done()
		if _, err := io.Copy(dst, r); err != nil {
			// A reset or other failure: end both sides at once.
			_ = dst.Close()
			_ = src.Close()
			return
		}
		if tc, ok := dst.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		}
	}
	go pipe(up, c, br)
	go pipe(c, up, up)
	wg.Wait()
}
