package probe

import (
	"net"
	"syscall"

	"golang.org/x/sys/unix"
)

func setReadBuffer(rc syscall.RawConn, size int) error {
	var serr error
	err := rc.Control(func(fd uintptr) { serr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_RCVBUF, size) })
	if err != nil {
		return err
	}
	return serr
}

// peerClosed reports, without reading (a flood that does not read must not drain the ACKs),
// whether the peer sent FIN or RST: poll(2) with POLLRDHUP and no wait.
func peerClosed(c net.Conn) bool {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	closed := false
	rc.Control(func(fd uintptr) {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLRDHUP}}
		if n, err := unix.Poll(fds, 0); err == nil && n > 0 {
			closed = fds[0].Revents&(unix.POLLRDHUP|unix.POLLHUP|unix.POLLERR) != 0
		}
	})
	return closed
}

// unsent is how many bytes the kernel still holds for c, not yet acknowledged by the peer
// (SIOCOUTQ); -1 if unknown.
func unsent(c net.Conn) int {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return -1
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return -1
	}
	n := -1
	rc.Control(func(fd uintptr) {
		if v, err := unix.IoctlGetInt(int(fd), unix.SIOCOUTQ); err == nil {
			n = v
		}
	})
	return n
}
