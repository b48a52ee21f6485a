package main

import "testing"

// /proc/net/if_inet6 lines: address, ifindex, prefix length, scope, flags, name.
func TestTentativeAddresses(t *testing.T) {
	table := "fd0057170000001e0000000000000064 02 40 00 c0 eth0\n" + // tentative (0x40) + permanent (0x80)
		"fe80000000000000042ac2fffe130064 02 40 20 80 eth0\n" + // usable
		"00000000000000000000000000000001 01 80 10 80 lo\n"
	got := tentativeAddresses(table)
	if len(got) != 1 || got[0] != "eth0 fd0057170000001e0000000000000064" {
		t.Errorf("tentative: %v", got)
	}
	if left := tentativeAddresses("fe80000000000000042ac2fffe130064 02 40 20 80 eth0\n"); len(left) != 0 {
		t.Errorf("a settled table: %v", left)
	}
}
