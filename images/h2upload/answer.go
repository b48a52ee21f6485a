package main

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// maxAnswer bounds how much of a response body is kept: the answer is a decimal count.
const maxAnswer = 1 << 10

// verifyAnswer checks the server's reply to the upload: 200 and the decimal count of the bytes
// sent, or an echo of the body (nghttpd's --echo-upload, a server that cannot count): total
// bytes equal to the body's, starting with the body's pattern. body is the answer's start,
// total its whole length. It returns "" when right, else a one-line reason.
func verifyAnswer(status int, body []byte, total, size int64) string {
	text := strings.TrimSpace(string(body))
	if status != 200 {
		return fmt.Sprintf("server answered status %d: %s", status, oneLine(text))
	}
	if total == size && size > int64(len(body)) && bytes.Equal(body, (&pattern{}).slice(0, len(body))) {
		return "" // an echo of the whole body
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return fmt.Sprintf("server answered 200 without a byte count (nor an echo of the body: %d of %d bytes): %s", total, size, oneLine(text))
	}
	if n != size {
		return fmt.Sprintf("server counted %d bytes, %d were sent", n, size)
	}
	return ""
}

// oneLine quotes s shortened to 80 characters, so a reason stays on one line.
func oneLine(s string) string {
	if len(s) > 80 {
		s = s[:80] + "..."
	}
	return strconv.Quote(s)
}
