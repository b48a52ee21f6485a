package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// A fresh container's IPv6 addresses are tentative for a second or two (duplicate address
// detection). When one becomes usable, Chromium sees the IP addresses change and closes every
// connection it has (NETWORK_IP_ADDRESSES_CHANGED, then ERR_NETWORK_CHANGED: the page's fetch
// fails with "Failed to fetch"; seen in make bench, run bgig1). So the browser starts only once
// no address is tentative any more.

const ifaTentative = 0x40 // IFA_F_TENTATIVE, the flags column of /proc/net/if_inet6

// tentativeAddresses lists the addresses of if_inet6 (its content) still under duplicate
// address detection.
func tentativeAddresses(ifInet6 string) []string {
	var out []string
	for _, line := range strings.Split(ifInet6, "\n") {
		f := strings.Fields(line)
		if len(f) < 6 {
			continue
		}
		if flags, err := strconv.ParseUint(f[4], 16, 32); err == nil && flags&ifaTentative != 0 {
			out = append(out, f[5]+" "+f[0])
		}
	}
	return out
}

// waitAddressesSettled waits until no IPv6 address of the container is tentative, polling
// /proc/net/if_inet6, for at most limit; it says what was still tentative then (the browser
// starts anyway: a later network change fails its fetch with a reason of its own).
func waitAddressesSettled(limit time.Duration) {
	deadline := time.Now().Add(limit)
	for {
		data, err := os.ReadFile("/proc/net/if_inet6")
		if err != nil {
			return // no IPv6 here: nothing to settle
		}
		left := tentativeAddresses(string(data))
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			fmt.Printf("driver: IPv6 addresses still tentative after %s: %s\n", limit, strings.Join(left, ", "))
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}
