package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
)

// rawWebPost posts a gRPC-web request over an HTTP/1.1 connection of its own and returns the
// response head's field lines exactly as they came (net/http's client canonicalises the names),
// the parsed response, and its whole body.
func rawWebPost(ctx context.Context, target, path, contentType string, body []byte) (fields []string, resp *http.Response, got []byte, err error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", target)
	if err != nil {
		return nil, nil, nil, err
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	req := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\nAccept: %s\r\nX-Grpc-Web: 1\r\nContent-Length: %d\r\nConnection: close\r\n\r\n",
		path, target, contentType, contentType, len(body))
	if _, err := conn.Write(append([]byte(req), body...)); err != nil {
		return nil, nil, nil, err
	}
	br := bufio.NewReader(conn)
	var head bytes.Buffer
	for {
		line, err := br.ReadString('\n')
		head.WriteString(line)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("reading the response head: %v", err)
		}
		if line == "\r\n" || line == "\n" {
			break
		}
		if head.Len() != len(line) { // not the status line
			fields = append(fields, strings.TrimRight(line, "\r\n"))
		}
	}
	resp, err = http.ReadResponse(bufio.NewReader(io.MultiReader(&head, br)), nil)
	if err != nil {
		return nil, nil, nil, err
	}
	defer resp.Body.Close()
	got, err = io.ReadAll(resp.Body)
	return fields, resp, got, err
}

// namesAsWritten lists the field names among fields that equal name in any case, as written.
func namesAsWritten(fields []string, name string) []string {
	var out []string
	for _, f := range fields {
		if n, _, ok := strings.Cut(f, ":"); ok && strings.EqualFold(strings.TrimSpace(n), name) {
			out = append(out, n)
		}
	}
	return out
}
