package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
)

// HTTP/0.9 as the interop runner's "hq-interop" ALPN uses it: the client sends "GET /path\r\n" on
// a bidirectional stream and closes its side; the server answers with the file's bytes and FIN.

const (
	alpn          = "hq-interop"
	maxRequestLen = 8 << 10 // a request line longer than this is not a sane HTTP/0.9 request
)

// requestLine is what the client writes for a URL path.
func requestLine(urlPath string) string { return "GET " + urlPath + "\r\n" }

// readRequest reads one request line from a stream: up to CRLF (or LF, or the peer's FIN) and
// at most maxRequestLen bytes, and returns the requested path.
func readRequest(r io.Reader) (string, error) {
	br := bufio.NewReaderSize(io.LimitReader(r, maxRequestLen+1), 512)
	line, err := br.ReadString('\n')
	switch {
	case err == io.EOF && line != "":
		// The peer closed its side without a line end; the line is complete anyway.
	case err != nil:
		return "", fmt.Errorf("reading request: %w", err)
	}
	if len(line) > maxRequestLen {
		return "", errors.New("request line too long")
	}
	return parseRequest(line)
}

// parseRequest parses "GET <path>" (trailing CRLF optional) into the path it asks for.
func parseRequest(line string) (string, error) {
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	method, target, ok := strings.Cut(line, " ")
	if !ok || method != "GET" {
		return "", fmt.Errorf("request %q: want \"GET /path\"", line)
	}
	if target == "" || target[0] != '/' || strings.ContainsAny(target, " \r\n\x00") {
		return "", fmt.Errorf("request %q: path must start with / and hold no spaces or control bytes", line)
	}
	return target, nil
}

// localName turns a URL path into a file name relative to a served or download root, refusing
// anything that could leave that root: ".." segments, an empty name, a directory. Used on both
// sides; the server additionally opens it through os.Root, which also refuses symlinks out.
func localName(urlPath string) (string, error) {
	if !strings.HasPrefix(urlPath, "/") {
		return "", fmt.Errorf("path %q: must start with /", urlPath)
	}
	if i := strings.IndexAny(urlPath, "?#"); i >= 0 {
		urlPath = urlPath[:i]
	}
	for _, seg := range strings.Split(urlPath[1:], "/") {
		if seg == ".." {
			return "", fmt.Errorf("path %q: \"..\" is not allowed", urlPath)
		}
	}
	if strings.ContainsAny(urlPath, "\\\x00") {
		return "", fmt.Errorf("path %q: backslash or NUL not allowed", urlPath)
	}
	name := strings.TrimPrefix(path.Clean(urlPath), "/")
	if name == "" || name == "." || strings.HasSuffix(urlPath, "/") {
		return "", fmt.Errorf("path %q: names no file", urlPath)
	}
	return name, nil
}
