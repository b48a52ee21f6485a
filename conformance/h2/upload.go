package h2

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// checkUpload judges an /upload answer to a body of want data bytes (padding is not content):
// :status 200 and either the decimal byte count or, from a server that cannot count (nghttpd
// --echo-upload), the body echoed back. The client's bodies are zero bytes, so an echo is want
// zero bytes (the first bodyKeep of them checked). It returns how the server answered.
func (c *conn) checkUpload(id uint32, want int64) (string, error) {
	s := c.peer.streams[id]
	if s.headers == nil || s.headers.status() != "200" {
		return "", fmt.Errorf("stream %d ended with %s, want :status 200", id, c.peer.streamEnd(id))
	}
	if got, err := strconv.ParseInt(strings.TrimSpace(string(s.body)), 10, 64); err == nil && got == want {
		return fmt.Sprintf("count %d", got), nil
	}
	if s.bodyLen == want && len(bytes.Trim(s.body, "\x00")) == 0 {
		return fmt.Sprintf("the %d bytes echoed", want), nil
	}
	return "", fmt.Errorf("POST /upload answered %d bytes %q, want the body byte count %d or an echo of the %d body bytes",
		s.bodyLen, truncate(string(s.body), 20), want, want)
}
