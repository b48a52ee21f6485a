package quicfuzz

import (
	"net"
	"os"
	"sync"
	"time"
)

// PacketConn is an in-memory net.PacketConn for a server: ReadFrom returns the datagrams queued
// with Deliver, WriteTo hands what the server sends to the subscriber of the destination
// address (Subscribe) or drops it. One server serves many fuzz inputs, each from its own
// client address, so late retransmissions to an earlier input's address go nowhere.
type PacketConn struct {
	local *net.UDPAddr
	in    chan datagram

	mu     sync.Mutex
	subs   map[string]chan []byte
	closed bool
	done   chan struct{}

	deadlineMu sync.Mutex
	deadline   time.Time
	moved      chan struct{} // a ReadFrom blocked without (or with an old) deadline looks again
}

type datagram struct {
	b    []byte
	from *net.UDPAddr
}

// NewPacketConn returns a PacketConn with local address local.
func NewPacketConn(local *net.UDPAddr) *PacketConn {
	return &PacketConn{local: local, in: make(chan datagram, 64), subs: map[string]chan []byte{}, done: make(chan struct{}), moved: make(chan struct{}, 1)}
}

// Deliver queues a datagram from a client address for the server to read.
func (c *PacketConn) Deliver(b []byte, from *net.UDPAddr) {
	select {
	case c.in <- datagram{append([]byte(nil), b...), from}:
	case <-c.done:
	}
}

// Subscribe returns the channel that receives the datagrams the server sends to addr, until
// Unsubscribe. Datagrams beyond the channel's buffer are dropped, as a network would.
func (c *PacketConn) Subscribe(addr *net.UDPAddr) <-chan []byte {
	ch := make(chan []byte, 32)
	c.mu.Lock()
	c.subs[addr.String()] = ch
	c.mu.Unlock()
	return ch
}

// Unsubscribe stops delivering to addr's channel.
func (c *PacketConn) Unsubscribe(addr *net.UDPAddr) {
	c.mu.Lock()
	delete(c.subs, addr.String())
	c.mu.Unlock()
}

func (c *PacketConn) ReadFrom(p []byte) (int, net.Addr, error) {
	for {
		c.deadlineMu.Lock()
		d := c.deadline
		c.deadlineMu.Unlock()
		var timeout <-chan time.Time
		var t *time.Timer
		if !d.IsZero() {
			wait := time.Until(d)
			if wait <= 0 {
				return 0, nil, os.ErrDeadlineExceeded
			}
			t = time.NewTimer(wait)
			timeout = t.C
		}
		stop := func() {
			if t != nil {
				t.Stop()
			}
		}
		select {
		case dg := <-c.in:
			stop()
			return copy(p, dg.b), dg.from, nil // a datagram longer than p is truncated, as by UDP
		case <-c.done:
			stop()
			return 0, nil, net.ErrClosed
		case <-timeout:
		case <-c.moved:
			stop()
		}
	}
}

func (c *PacketConn) WriteTo(p []byte, addr net.Addr) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return 0, net.ErrClosed
	}
	if ch := c.subs[addr.String()]; ch != nil {
		select {
		case ch <- append([]byte(nil), p...):
		default:
		}
	}
	return len(p), nil
}

func (c *PacketConn) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		c.closed = true
		close(c.done)
	}
	return nil
}

func (c *PacketConn) LocalAddr() net.Addr { return c.local }

func (c *PacketConn) SetDeadline(t time.Time) error {
	c.SetReadDeadline(t)
	return nil
}

func (c *PacketConn) SetReadDeadline(t time.Time) error {
	c.deadlineMu.Lock()
	c.deadline = t
	c.deadlineMu.Unlock()
	select {
	case c.moved <- struct{}{}:
	default:
	}
	return nil
}

func (c *PacketConn) SetWriteDeadline(time.Time) error { return nil }
