package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"unsafe"

	"golang.org/x/sys/unix"
)

// UDP GSO/GRO lets one syscall carry a batch of equal-sized datagrams, so a single process can
// push and count >1 Gbit/s of MTU-sized packets on a small VM. Every datagram in a batch still
// has its own probe header, so the receiver counts exactly what it would without batching.

const (
	maxGSOSegments = 64    // the kernel's UDP_MAX_SEGMENTS on older kernels (newer allow 128)
	maxUDPPayload  = 65507 // a whole batch is one UDP datagram before segmentation
)

// checkGSO rejects batch sizes the kernel would refuse anyway, with an error naming the flag.
func checkGSO(batch, size int) error {
	switch {
	case batch < 0:
		return fmt.Errorf("-gso %d: want 0 (off) or a batch of 2..%d datagrams", batch, maxGSOSegments)
	case batch <= 1:
		return nil
	case batch > maxGSOSegments:
		return fmt.Errorf("-gso %d: the kernel sends at most %d segments per batch", batch, maxGSOSegments)
	case batch*size > maxUDPPayload:
		return fmt.Errorf("-gso %d with -size %d: a batch of %d bytes exceeds the %d-byte UDP limit; use -gso %d or less",
			batch, size, batch*size, maxUDPPayload, maxUDPPayload/size)
	}
	return nil
}

// gsoControl is the sendmsg control message that makes the kernel cut the payload into
// datagrams of size bytes (UDP_SEGMENT, a native-endian uint16).
func gsoControl(size int) []byte {
	b := make([]byte, unix.CmsgSpace(2))
	h := (*unix.Cmsghdr)(unsafe.Pointer(&b[0]))
	h.Level, h.Type = unix.SOL_UDP, unix.UDP_SEGMENT
	h.SetLen(unix.CmsgLen(2))
	binary.NativeEndian.PutUint16(b[unix.CmsgLen(0):], uint16(size))
	return b
}

// gsoRefused says the kernel would not segment a batch: EINVAL for a segment over the path MTU
// or too many segments, EIO when the device cannot checksum it, EMSGSIZE for an oversize batch.
// Unlike ENOBUFS/EAGAIN this does not pass with back-off, so the sender stops.
type gsoRefused struct {
	batch, size int
	err         error
}

func (e *gsoRefused) Error() string {
	return fmt.Sprintf("-gso %d: the kernel refused UDP_SEGMENT of %d-byte datagrams (%v); lower -size or drop -gso",
		e.batch, e.size, e.err)
}

func (e *gsoRefused) Unwrap() error { return e.err }

// gsoSendError classifies the error of a segmented send; back-off errors pass through.
func gsoSendError(err error, batch, size int) error {
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.EIO) || errors.Is(err, unix.EMSGSIZE) {
		return &gsoRefused{batch: batch, size: size, err: err}
	}
	return err
}

// enableGRO asks the kernel to hand over coalesced datagrams with their segment size.
func enableGRO(fd int) error {
	return unix.SetsockoptInt(fd, unix.SOL_UDP, unix.UDP_GRO, 1)
}

// connGRO turns on UDP GRO for a net.UDPConn.
func connGRO(c *net.UDPConn) error {
	raw, err := c.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := raw.Control(func(fd uintptr) { serr = enableGRO(int(fd)) }); err != nil {
		return err
	}
	return serr
}

// groSize returns the segment size of a coalesced read from its UDP_GRO control message
// (a native int), or 0 when the read is a single datagram.
func groSize(oob []byte) int {
	if len(oob) == 0 {
		return 0
	}
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return 0
	}
	for _, m := range msgs {
		if m.Header.Level != unix.SOL_UDP || m.Header.Type != unix.UDP_GRO {
			continue
		}
		switch {
		case len(m.Data) >= 4:
			return int(binary.NativeEndian.Uint32(m.Data))
		case len(m.Data) >= 2:
			return int(binary.NativeEndian.Uint16(m.Data))
		}
	}
	return 0
}

// splitSegments appends to dst the datagrams of a read coalesced at seg bytes each (the last
// may be shorter); seg <= 0 means the read is one datagram.
func splitSegments(dst [][]byte, b []byte, seg int) [][]byte {
	if seg <= 0 || seg >= len(b) {
		return append(dst, b)
	}
	for len(b) > seg {
		dst = append(dst, b[:seg:seg])
		b = b[seg:]
	}
	return append(dst, b)
}
