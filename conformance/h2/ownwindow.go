package h2

import "fmt"

// ownWindows is what the client granted the server, as sent: its SETTINGS_INITIAL_WINDOW_SIZE
// and WINDOW_UPDATE increments. With the DATA received it gives the client's receive windows as
// the frames show them, never as a case assumes them.
type ownWindows struct {
	initial int64            // the last SETTINGS_INITIAL_WINDOW_SIZE sent (65,535 before any)
	credit  map[uint32]int64 // WINDOW_UPDATE increments sent, by stream (0: the connection)
}

// recvWindow is the room left in the client's receive window of stream id (0: the connection):
// what the client granted less the DATA the server sent. Negative: the server sent beyond it.
func (c *conn) recvWindow(id uint32) int64 {
	if id == 0 {
		return defaultWindow + c.own.credit[0] - c.peer.recvConn
	}
	return c.own.initial + c.own.credit[id] - c.peer.streams[id].recvd
}

// beyondOwnWindow names the first of ids (and then the connection) whose receive window the
// server's DATA went beyond, with the numbers the frames show, or returns "".
func (c *conn) beyondOwnWindow(ids []uint32) string {
	for _, id := range ids {
		if w := c.recvWindow(id); w < 0 {
			return fmt.Sprintf("the server sent %d bytes of DATA on stream %d, %d beyond its window (SETTINGS_INITIAL_WINDOW_SIZE=%d%s + %d granted by WINDOW_UPDATE)",
				c.peer.streams[id].recvd, id, -w, c.own.initial, c.ackNote(), c.own.credit[id])
		}
	}
	if w := c.recvWindow(0); w < 0 {
		return fmt.Sprintf("the server sent %d bytes of DATA on the connection, %d beyond its window (65535 + %d granted by WINDOW_UPDATE)",
			c.peer.recvConn, -w, c.own.credit[0])
	}
	return ""
}

// ackNote says whether the server acknowledged every SETTINGS the client sent so far.
func (c *conn) ackNote() string {
	if c.peer.acks >= c.settingsSent {
		return " (ACKed)"
	}
	return fmt.Sprintf(" (%d of %d SETTINGS ACKed)", c.peer.acks, c.settingsSent)
}
