package main

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TUN offload flags (include/uapi/linux/if_tun.h); USO needs Linux 6.2.
const (
	tunFCsum = 0x01
	tunFTSO4 = 0x02
	tunFTSO6 = 0x04
	tunFUSO4 = 0x20
	tunFUSO6 = 0x40
)

// openTUN creates (or attaches to) the TUN device name without packet-info headers.
//
// Without offload, reads and writes are bare IP packets and the device has no offloads, so the
// kernel completes checksums and segments GSO packets before handing them over, one read(2) per
// wire packet. With offload, every read and write carries a virtio_net_hdr and the device takes
// checksum, TCP and UDP segmentation offload, so a whole GSO batch arrives in one read and is
// cut into wire packets by the engine (vnet.go): fewer syscalls and no software segmentation in
// the kernel. Either way the engine decides on wire-sized packets with final checksums, which is
// what makes default-mode corruption detectable by the receiver.
//
// The fd stays blocking: a reader thread parked in read(2) is woken by the kernel directly,
// which on this 2-vCPU VM is about a millisecond faster at the tail than Go's netpoller.
func openTUN(name string, offload bool) (tunDev, error) {
	fd, err := unix.Open("/dev/net/tun", unix.O_RDWR|unix.O_CLOEXEC, 0)
	if err != nil {
		return tunDev{}, fmt.Errorf("open /dev/net/tun: %w (the sim needs the device and NET_ADMIN)", err)
	}
	flags := uint16(unix.IFF_TUN | unix.IFF_NO_PI)
	if offload {
		flags |= unix.IFF_VNET_HDR
	}
	var req [unix.IFNAMSIZ + 64]byte
	copy(req[:unix.IFNAMSIZ-1], name)
	*(*uint16)(unsafe.Pointer(&req[unix.IFNAMSIZ])) = flags
	if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), uintptr(unix.TUNSETIFF), uintptr(unsafe.Pointer(&req[0]))); errno != 0 {
		unix.Close(fd)
		return tunDev{}, fmt.Errorf("TUNSETIFF %s: %w", name, errno)
	}
	if !offload {
		return tunDev{fd: fd}, nil
	}
	off := uintptr(tunFCsum | tunFTSO4 | tunFTSO6 | tunFUSO4 | tunFUSO6)
	if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), uintptr(unix.TUNSETOFFLOAD), off); errno != 0 {
		// A kernel before 6.2 has no USO: TCP offload alone still batches TCP.
		off = tunFCsum | tunFTSO4 | tunFTSO6
		if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), uintptr(unix.TUNSETOFFLOAD), off); errno != 0 {
			unix.Close(fd)
			return tunDev{}, fmt.Errorf("TUNSETOFFLOAD %s: %w", name, errno)
		}
	}
	return tunDev{fd: fd, vnet: true}, nil
}

// tunDev is a TUN device's file descriptor; vnet: reads and writes carry a virtio_net_hdr.
type tunDev struct {
	fd   int
	vnet bool
}

func (t tunDev) read(b []byte) (int, error) { return unix.Read(t.fd, b) }

// noVnetHdr heads every packet the engine writes to an offloading device: whole packets with
// complete checksums, nothing for the kernel to do.
var noVnetHdr [vnetHdrLen]byte

// write sends one wire packet.
func (t tunDev) write(b []byte) (int, error) {
	if !t.vnet {
		return unix.Write(t.fd, b)
	}
	return unix.Writev(t.fd, [][]byte{noVnetHdr[:], b})
}

// writeGSO sends a batch the kernel segments (vnet.go coalesce); only on an offloading device.
func (t tunDev) writeGSO(hdr []byte, pkt []byte) (int, error) {
	return unix.Writev(t.fd, [][]byte{hdr, pkt})
}
