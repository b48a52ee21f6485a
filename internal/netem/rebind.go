package netem

import (
	"errors"
	"math/rand/v2"
	"net/netip"
	"slices"
	"time"
)

// Rebind mirrors the upstream rebind scenario: a NAT in front of the client
// changes the external port (and optionally address) of every binding at
// First and then every Freq (Freq 0: only once).
//
// New values come from the seed. A new address keeps the client address's
// network (the first 3 bytes of IPv4, 14 of IPv6) so the server's replies
// still route through the sidecar; a new port is in 1024-65535. After a
// rebinding the old external endpoint is forgotten: replies to it are
// dropped (DropNAT), as a real NAT would.
type Rebind struct {
	First time.Duration
	Freq  time.Duration
	Port  bool // rebind client ports
	Addr  bool // rebind client addresses
}

// Enabled reports whether anything is rebound.
func (r Rebind) Enabled() bool { return r.Port || r.Addr }

// Validate rejects negative times.
func (r Rebind) Validate() error {
	if r.First < 0 || r.Freq < 0 {
		return errors.New("netem: rebind times must not be negative")
	}
	return nil
}

// Due is how many rebindings the schedule puts at or before clock (an engine's Stats.Clock):
// exactly the number an engine that decided its last packet at clock has made.
func (r Rebind) Due(clock time.Duration) int {
	switch {
	case !r.Enabled() || clock < r.First:
		return 0
	case r.Freq <= 0:
		return 1
	}
	return int((clock-r.First)/r.Freq) + 1
}

// nat is the client-side NAT state. Keys are iterated in sorted order so
// rebinding is deterministic.
type nat struct {
	cfg    Rebind
	rng    *rand.Rand
	next   time.Duration // time of the next rebinding; never when done
	events int

	addrs map[netip.Addr]netip.Addr         // client address -> external address
	out   map[netip.AddrPort]netip.AddrPort // client endpoint -> external endpoint
	in    map[netip.AddrPort]netip.AddrPort // external endpoint -> client endpoint
}

const never = time.Duration(1<<63 - 1)

func newNAT(cfg Rebind, seed uint64) *nat {
	return &nat{
		cfg:   cfg,
		rng:   substream(seed, "nat", "rebind"),
		next:  cfg.First,
		addrs: map[netip.Addr]netip.Addr{},
		out:   map[netip.AddrPort]netip.AddrPort{},
		in:    map[netip.AddrPort]netip.AddrPort{},
	}
}

// advance applies every rebinding due by now, also those that fell into a
// quiet period, so the mapping depends on time and not on traffic timing.
func (n *nat) advance(now time.Duration) {
	for n.next <= now {
		n.rebind()
		n.events++
		if n.cfg.Freq <= 0 {
			n.next = never
		} else {
			n.next += n.cfg.Freq
		}
	}
}

// toServer maps a client source endpoint to its external one, creating an
// identity binding on first use (as the upstream NAT does).
func (n *nat) toServer(src netip.AddrPort) netip.AddrPort {
	if ext, ok := n.out[src]; ok {
		return ext
	}
	addr, ok := n.addrs[src.Addr()]
	if !ok {
		addr = src.Addr()
		n.addrs[addr] = addr
	}
	ext := netip.AddrPortFrom(addr, src.Port())
	for n.taken(ext) {
		ext = netip.AddrPortFrom(addr, n.portOtherThan(0))
	}
	n.out[src], n.in[ext] = ext, src
	return ext
}

// toClient maps an external destination back to the client endpoint.
func (n *nat) toClient(dst netip.AddrPort) (netip.AddrPort, bool) {
	c, ok := n.in[dst]
	return c, ok
}

func (n *nat) taken(ext netip.AddrPort) bool {
	_, ok := n.in[ext]
	return ok
}

// rebind gives every client address (Addr) and binding (Port) a new value.
func (n *nat) rebind() {
	if n.cfg.Addr {
		used := map[netip.Addr]bool{}
		for c, e := range n.addrs {
			used[c], used[e] = true, true
		}
		for _, c := range sortedKeys(n.addrs, netip.Addr.Compare) {
			e := n.newAddr(n.addrs[c], used)
			used[e] = true
			n.addrs[c] = e
		}
	}
	clients := sortedKeys(n.out, netip.AddrPort.Compare)
	n.in = make(map[netip.AddrPort]netip.AddrPort, len(clients))
	for _, c := range clients {
		old := n.out[c]
		addr := n.addrs[c.Addr()]
		port := old.Port()
		if n.cfg.Port {
			port = n.portOtherThan(old.Port())
		}
		ext := netip.AddrPortFrom(addr, port)
		for n.taken(ext) {
			ext = netip.AddrPortFrom(addr, n.portOtherThan(old.Port()))
		}
		n.out[c], n.in[ext] = ext, c
	}
}

// portOtherThan draws an unprivileged port different from old.
func (n *nat) portOtherThan(old uint16) uint16 {
	for {
		if p := uint16(1024 + n.rng.IntN(65536-1024)); p != old {
			return p
		}
	}
}

// newAddr varies the host part of old, avoiding every address in used. It
// gives up (keeping old) only if the host range is exhausted.
func (n *nat) newAddr(old netip.Addr, used map[netip.Addr]bool) netip.Addr {
	for range 1 << 16 {
		var a netip.Addr
		if old.Is4() {
			b := old.As4()
			b[3] = byte(1 + n.rng.IntN(254))
			a = netip.AddrFrom4(b)
		} else {
			b := old.As16()
			h := 1 + n.rng.IntN(0xfffe)
			b[14], b[15] = byte(h>>8), byte(h)
			a = netip.AddrFrom16(b).WithZone(old.Zone())
		}
		if !used[a] {
			return a
		}
	}
	return old
}

func sortedKeys[K comparable, V any](m map[K]V, cmp func(K, K) int) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, cmp)
	return keys
}
