package main

import (
	"fmt"
	"strconv"
	"strings"
)

// maxAnswer bounds how much of a response body is kept: the answer is a decimal count.
const maxAnswer = 1 << 10

// verifyAnswer checks the server's reply to the upload: 200 and the decimal count of the bytes
// sent. It returns "" when right, else a one-line reason.
func verifyAnswer(status int, body []byte, size int64) string {
	text := strings.TrimSpace(string(body))
	if status != 200 {
		return fmt.Sprintf("server answered status %d: %s", status, oneLine(text))
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return fmt.Sprintf("server answered 200 without a byte count: %s", oneLine(text))
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
