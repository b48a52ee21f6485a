package main

import (
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// openTUN creates (or attaches to) the TUN device name without packet-info headers: reads and
// writes are bare IP packets. The device has no offloads, so the kernel completes checksums and
// segments GSO packets before handing them to us: the engine sees wire-sized packets with final
// checksums, which is what makes corruption detectable by the receiver.
func openTUN(name string) (*os.File, error) {
	fd, err := unix.Open("/dev/net/tun", unix.O_RDWR|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("open /dev/net/tun: %w (the sim needs the device and NET_ADMIN)", err)
	}
	var req [unix.IFNAMSIZ + 64]byte
	copy(req[:unix.IFNAMSIZ-1], name)
	*(*uint16)(unsafe.Pointer(&req[unix.IFNAMSIZ])) = unix.IFF_TUN | unix.IFF_NO_PI
	if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), uintptr(unix.TUNSETIFF), uintptr(unsafe.Pointer(&req[0]))); errno != 0 {
		unix.Close(fd)
		return nil, fmt.Errorf("TUNSETIFF %s: %w", name, errno)
	}
	// Non-blocking, so reads park in Go's poller instead of tying up a thread each.
	return os.NewFile(uintptr(fd), "/dev/net/tun:"+name), nil
}
