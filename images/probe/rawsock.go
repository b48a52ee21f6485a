package main

import (
	"net"
	"net/netip"

	"golang.org/x/sys/unix"
)

// rawUDP is a dual-stack UDP socket driven by plain syscalls from a locked OS thread: a reply
// (echo) goes out as soon as the kernel wakes the thread, without a hop through Go's netpoller,
// whose wake-ups cost up to milliseconds on a small VM and would be counted as network delay.
type rawUDP int

func listenRawUDP(port int) (rawUDP, error) {
	fd, err := unix.Socket(unix.AF_INET6, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	_ = unix.SetsockoptInt(fd, unix.IPPROTO_IPV6, unix.IPV6_V6ONLY, 0)
	_ = unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_RCVBUF, 8<<20)
	_ = unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_SNDBUF, 8<<20)
	if err := unix.Bind(fd, &unix.SockaddrInet6{Port: port}); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return rawUDP(fd), nil
}

func (s rawUDP) recv(b []byte) (int, unix.Sockaddr, error) { return unix.Recvfrom(int(s), b, 0) }
func (s rawUDP) send(b []byte, to unix.Sockaddr) error     { return unix.Sendto(int(s), b, 0, to) }

// recvMsg is recv with control messages (UDP GRO's segment size).
func (s rawUDP) recvMsg(b, oob []byte) (n, oobn int, from unix.Sockaddr, err error) {
	n, oobn, _, from, err = unix.Recvmsg(int(s), b, oob, 0)
	return n, oobn, from, err
}

// sendMsg is send with a control message (UDP GSO's segment size).
func (s rawUDP) sendMsg(b, oob []byte, to unix.Sockaddr) error {
	_, err := unix.SendmsgN(int(s), b, oob, to, 0)
	return err
}

// addrOf returns the peer's address (v4-mapped peers as plain IPv4).
func addrOf(sa unix.Sockaddr) netip.Addr {
	if s6, ok := sa.(*unix.SockaddrInet6); ok {
		return netip.AddrFrom16(s6.Addr).Unmap()
	}
	return netip.Addr{}
}

// udpAddrOf converts a peer address for code written against net.UDPAddr.
func udpAddrOf(sa unix.Sockaddr) *net.UDPAddr {
	s6, _ := sa.(*unix.SockaddrInet6)
	if s6 == nil {
		return nil
	}
	return &net.UDPAddr{IP: net.IP(s6.Addr[:]), Port: s6.Port}
}
