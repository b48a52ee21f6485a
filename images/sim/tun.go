package main

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// openTUN creates (or attaches to) the TUN device name without packet-info headers: reads and
// writes are bare IP packets. The device has no offloads, so the kernel completes checksums and
// segments GSO packets before handing them to us: the engine sees wire-sized packets with final
// checksums, which is what makes default-mode corruption detectable by the receiver (deliver mode
// recomputes them: images/sim/packet.go).
//
// The fd stays blocking: a reader thread parked in read(2) is woken by the kernel directly,
// which on this 2-vCPU VM is about a millisecond faster at the tail than Go's netpoller.
func openTUN(name string) (tunDev, error) {
	fd, err := unix.Open("/dev/net/tun", unix.O_RDWR|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("open /dev/net/tun: %w (the sim needs the device and NET_ADMIN)", err)
	}
	var req [unix.IFNAMSIZ + 64]byte
	copy(req[:unix.IFNAMSIZ-1], name)
	*(*uint16)(unsafe.Pointer(&req[unix.IFNAMSIZ])) = unix.IFF_TUN | unix.IFF_NO_PI
	if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), uintptr(unix.TUNSETIFF), uintptr(unsafe.Pointer(&req[0]))); errno != 0 {
		unix.Close(fd)
		return -1, fmt.Errorf("TUNSETIFF %s: %w", name, errno)
	}
	return tunDev(fd), nil
}

// tunDev is a TUN device's file descriptor.
type tunDev int

func (t tunDev) read(b []byte) (int, error)  { return unix.Read(int(t), b) }
func (t tunDev) write(b []byte) (int, error) { return unix.Write(int(t), b) }
