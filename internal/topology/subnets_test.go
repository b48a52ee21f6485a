package topology

import (
	"net/netip"
	"testing"
)

func TestPairsAreDisjointAndInsideTheLabRanges(t *testing.T) {
	lab4, lab6 := netip.MustParsePrefix("198.18.0.0/15"), netip.MustParsePrefix("fd00:5717::/32")
	seen := map[netip.Prefix]int{}
	for i := 0; i < pairs; i++ {
		for _, p := range pair(i).prefixes() {
			if !lab4.Contains(p.Addr()) && !lab6.Contains(p.Addr()) {
				t.Fatalf("pair %d: %v outside the lab ranges", i, p)
			}
			if j, dup := seen[p]; dup {
				t.Fatalf("pairs %d and %d share %v", i, j, p)
			}
			seen[p] = i
		}
	}
	if s := pair(255); s.Server4 != "198.19.255" || s.Client6 != "fd00:5717:0:1fe" {
		t.Fatalf("last pair %+v", s)
	}
}

func TestOverlapDetection(t *testing.T) {
	used := []netip.Prefix{netip.MustParsePrefix("198.18.0.0/16")}
	if !overlaps(pair(3).prefixes(), used) {
		t.Fatal("pair 3 lies in 198.18.0.0/16")
	}
	if overlaps(pair(200).prefixes(), used) {
		t.Fatal("pair 200 is in 198.19/16")
	}
}
