//go:build !linux

package probe

import (
	"net"
	"syscall"
)

// Elsewhere the receive buffer keeps its default: a flood that does not read needs more frames
// before the server's queue fills.
func setReadBuffer(syscall.RawConn, int) error { return nil }

// Elsewhere a close is seen only when a write fails or, after the flood, when reading.
func peerClosed(net.Conn) bool { return false }

// Elsewhere the flood is taken as delivered once written.
func unsent(net.Conn) int { return -1 }
