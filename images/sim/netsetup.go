package main

import (
	"fmt"
	"net"
	"net/netip"
	"os/exec"
	"strings"
)

// side is one of the sim's two networks: the interface docker attached, found by subnet because
// docker attaches networks in no fixed order (eth0/eth1 may swap), and the TUN device the
// forwarded traffic from that side is steered into.
type side struct {
	name       string // "client" | "server"
	net4, net6 netip.Prefix
	iface      string
	tun        string
	table      int
}

// gateway returns the address the sim claims on a subnet: .2 / ::2, the endpoints' gateway.
func gateway(p netip.Prefix) netip.Addr {
	a := p.Masked().Addr().Next().Next()
	return a
}

// findInterface returns the interface holding an address inside p.
func findInterface(p netip.Prefix) (string, error) {
	ifaces, err := net.Interfaces()
	if err != nil {
		return "", err
	}
	for _, ifc := range ifaces {
		addrs, _ := ifc.Addrs()
		for _, a := range addrs {
			if ipn, ok := a.(*net.IPNet); ok {
				if ip, ok := netip.AddrFromSlice(ipn.IP); ok && p.Contains(ip.Unmap()) {
					return ifc.Name, nil
				}
			}
		}
	}
	return "", fmt.Errorf("no interface has an address in %s (is the sim attached to that network?)", p)
}

// setupNetwork claims the gateway addresses, creates the steering routes and the firewall that
// keeps traffic from bypassing the engine. The TUN devices must already exist (openTUN).
//
// Why TUN: the kernel here has no sch_netem, and of the userspace options TUN lets the engine
// hold, duplicate, rewrite and reorder packets freely in its own memory and needs no netfilter
// protocol: policy routing steers everything arriving from one side into that side's TUN, and
// what the engine writes back is routed on normally. NFQUEUE would hand over checksum-partial
// skbs and bound the delay line by the kernel queue.
//
// What crosses the TUN devices depends on offload (SIM_OFFLOAD, default on; openTUN). With it,
// every read and write carries a virtio_net_hdr and the devices take checksum, TCP and UDP
// segmentation offload: one read may hold a whole GSO batch (a TCP stack's 64 KB send, a QUIC
// stack's UDP_SEGMENT batch, or datagrams GRO merged on the sim's interfaces, see enableGRO),
// which the sim cuts into wire packets with complete checksums itself (splitVnet) before the
// engine decides on each; the writer hands runs of one flow's packets due together back as one
// GSO batch (coalesce) that the kernel segments again, computing their checksums. Without it,
// reads and writes are single wire packets: the kernel segments and completes checksums first.
func setupNetwork(sides []*side, gro bool) error {
	var cmds [][]string
	for _, s := range sides {
		var err error
		if s.iface, err = findInterface(s.net4); err != nil {
			return fmt.Errorf("%s network: %w", s.name, err)
		}
		t := fmt.Sprint(s.table)
		cmds = append(cmds,
			[]string{"ip", "link", "set", s.tun, "up", "mtu", "1500"},
			[]string{"ip", "addr", "add", gateway(s.net4).String() + "/" + fmt.Sprint(s.net4.Bits()), "dev", s.iface},
			[]string{"ip", "rule", "add", "iif", s.iface, "lookup", t, "pref", "100"},
			[]string{"ip", "route", "add", "default", "dev", s.tun, "table", t},
		)
		if s.net6.IsValid() {
			cmds = append(cmds,
				[]string{"ip", "-6", "addr", "add", gateway(s.net6).String() + "/" + fmt.Sprint(s.net6.Bits()), "dev", s.iface, "nodad"},
				[]string{"ip", "-6", "rule", "add", "iif", s.iface, "lookup", t, "pref", "100"},
				[]string{"ip", "-6", "route", "add", "default", "dev", s.tun, "table", t},
			)
		}
	}
	if err := runAll(cmds); err != nil {
		return err
	}
	if gro {
		enableGRO(sides)
	}
	return firewall(sides)
}

func runAll(cmds [][]string) error {
	for _, c := range cmds {
		if out, err := exec.Command(c[0], c[1:]...).CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %v: %s", strings.Join(c, " "), err, strings.TrimSpace(string(out)))
		}
	}
	return nil
}

// enableGRO turns on GRO (which gives a veth NAPI) and GRO of forwarded UDP on the sim's
// interfaces, so datagrams an endpoint sends one by one reach the engine in batches, as TCP's
// and GSO senders' already do. Best effort: without it the engine gets them one by one.
func enableGRO(sides []*side) {
	for _, s := range sides {
		if out, err := exec.Command("ethtool", "-K", s.iface, "gro", "on", "rx-udp-gro-forwarding", "on").CombinedOutput(); err != nil {
			fmt.Printf("sim: GRO on %s not enabled (%v: %s): datagrams reach the engine one by one\n", s.iface, err, strings.TrimSpace(string(out)))
		}
	}
}

// firewall drops anything forwarded straight from one docker network to the other: should the
// engine stop (and its TUN devices vanish), traffic stops instead of flowing unimpaired.
func firewall(sides []*side) error {
	a, b := sides[0].iface, sides[1].iface
	return nft(fmt.Sprintf(`policy accept;
		iifname %q oifname %q drop
		iifname %q oifname %q drop`, a, b, b, a))
}

// labOnlyFirewall (kernel forwarding) lets the kernel forward between the two lab networks and
// nothing else.
func labOnlyFirewall(sides []*side) error {
	a, b := sides[0].iface, sides[1].iface
	return nft(fmt.Sprintf(`policy drop;
		iifname %q oifname %q accept
		iifname %q oifname %q accept`, a, b, b, a))
}

// nft loads the sim's forward chain: a policy and its rules.
func nft(chain string) error {
	ruleset := fmt.Sprintf(`table inet wirelab_sim {
	chain forward {
		type filter hook forward priority 0; %s
	}
}
`, chain)
	cmd := exec.Command("nft", "-f", "-")
	cmd.Stdin = strings.NewReader(ruleset)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("nft: %v: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}
