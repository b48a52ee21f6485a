package probe

import (
	"fmt"
	"strings"

	"golang.org/x/net/http2"
)

// Probe is one bounded reproduction of an HTTP/2 denial-of-service class.
type Probe struct {
	Name string // as -probes and the report call it
	CVE  string
	// Reads says whether the abusive connection reads the server's frames while it floods.
	// The floods of ACKs and RST_STREAMs must not: the attack is that the answers pile up.
	Reads bool
	// Settings is the abusive connection's SETTINGS frame.
	Settings []http2.Setting
	// flood sends frames through a until a send returns an error (bound, cut, write failure),
	// which it returns.
	flood func(a *abuser) error
}

// All returns every probe, in report order.
func All() []Probe {
	return []Probe{
		rapidReset, continuationFlood, settingsFlood, pingFlood,
		emptyFrames, resetFlood, zeroWindowDribble, madeYouReset,
	}
}

// Names lists the probes' names in report order.
func Names() []string {
	var names []string
	for _, p := range All() {
		names = append(names, p.Name)
	}
	return names
}

// Select resolves a comma list of probe names ("all" or empty: every probe), in report order,
// each at most once.
func Select(list string) ([]Probe, error) {
	all := All()
	if strings.TrimSpace(list) == "" || strings.TrimSpace(list) == "all" {
		return all, nil
	}
	want := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		found := false
		for _, p := range all {
			found = found || p.Name == name
		}
		if !found {
			return nil, fmt.Errorf("unknown probe %q (known: all, %s)", name, strings.Join(Names(), ", "))
		}
		want[name] = true
	}
	var out []Probe
	for _, p := range all {
		if want[p.Name] {
			out = append(out, p)
		}
	}
	return out, nil
}

// The lab's h2 contract: every server serves these.
const (
	pathSmall = "/"       // what the well-behaved client and most probes request
	pathLarge = "/1m.bin" // 1 MiB: a response that is still in flight when the probe strikes
)
