package simcheck

import "time"

// Scenario is one profile and the measurements taken through it.
type Scenario struct {
	Name    string
	Profile string // reference into images/sim/profiles.yml
	Capture bool   // pcaps on (off for capacity runs: tcpdump costs CPU)

	RTTCount    int           // echo probes (0: no RTT measurement)
	RTTInterval time.Duration //
	LossCheck   bool          // compare round-trip loss with the profile (needs RTTCount >= 10k)
	P50Check    bool          // check the median RTT
	P99Check    bool          // check the 99th percentile RTT
	Rates       []string      // "down" / "up": paced flows at 1.25x the configured rate
	RateGSO     bool          // the paced flows send UDP GSO batches (one datagram per syscall cannot reach 1.25x of it here)
	Capacity    bool          // flows as fast as possible, reported (no target): CapacityFlows
	Engine      string        // the sim's SIM_ENGINE: "" the emulator, "kernel" plain forwarding (the machine's limit)
	NoOffload   bool          // SIM_OFFLOAD=0: the emulator reads and writes one packet per syscall
	BlackholeMs float64       // expect a gap of this length in the probes
	CorruptLoss bool          // corruption counts as loss (receivers drop bad checksums)
	Rebinds     int           // expect this many NAT rebindings with traffic surviving them
}

// ProbeIPBytes is the IP size of an RTT probe (64 B payload + UDP/IPv4 headers).
const ProbeIPBytes = 92

// Full is `make sim-check`: the profiles docs/sim.md's fidelity table reports.
func Full() []Scenario {
	rtt := func(name, ref string, count int, every time.Duration, rates ...string) Scenario {
		return Scenario{Name: name, Profile: ref, Capture: true, RTTCount: count, RTTInterval: every, P50Check: count > 0, P99Check: count > 0, Rates: rates}
	}
	lossy := func(name, ref string) Scenario {
		return Scenario{Name: name, Profile: ref, Capture: true, RTTCount: 10000, RTTInterval: time.Millisecond, LossCheck: true, P50Check: true}
	}
	return []Scenario{
		{Name: "capacity", Profile: "ideal", Capacity: true, RTTCount: 3000, RTTInterval: time.Millisecond, P50Check: true, P99Check: true},
		{Name: "capacity-no-offload", Profile: "ideal", Capacity: true, NoOffload: true},
		// Kernel forwarding's RTT is reported next to the sim's (no check): the machine's own tail.
		{Name: "capacity-kernel", Profile: "ideal", Capacity: true, Engine: "kernel", RTTCount: 3000, RTTInterval: time.Millisecond},
		rtt("simple-p2p", "simple-p2p", 5000, time.Millisecond, "down", "up"),
		rtt("lte", "lte", 5000, time.Millisecond, "down", "up"),
		rtt("satellite", "satellite", 3000, 2*time.Millisecond, "down", "up"),
		rtt("slow-upload", "slow-upload", 3000, time.Millisecond, "up"),
		withGSO(rtt("fast-upload", "fast-upload", 3000, time.Millisecond, "up")),
		rtt("rate-1mbit", "simple-p2p:both.rate=1Mbit:both.queue=bdp", 0, 0, "down"),
		rtt("rate-50mbit", "simple-p2p:both.rate=50Mbit:both.queue=bdp", 0, 0, "down"),
		rtt("rate-100mbit", "simple-p2p:both.rate=100Mbit:both.queue=bdp", 0, 0, "down"),
		{Name: "rate-200mbit", Profile: "simple-p2p:both.rate=200Mbit:both.queue=bdp", Capture: true, Rates: []string{"down", "up"}, RateGSO: true},
		{Name: "rate-500mbit", Profile: "simple-p2p:both.rate=500Mbit:both.queue=bdp", Capture: true, Rates: []string{"down", "up"}, RateGSO: true},
		lossy("lossy-0", "lossy-0"),
		lossy("lossy-5", "lossy-5"),
		// Blackhole times count from the first packet the sim forwards (the probes' own); they
		// run 12 s, so the 2 s hole at 6 s falls well inside them however late they start.
		{Name: "blackhole", Profile: "blackhole:on=6s:off=2s:repeat=1", Capture: true, RTTCount: 6000, RTTInterval: 2 * time.Millisecond, BlackholeMs: 2000},
		{Name: "corrupt-5", Profile: "corrupt-rate:rate_to_client=5:rate_to_server=5:both.corrupt_deliver=false:both.corrupt_window=0", Capture: true, RTTCount: 10000, RTTInterval: time.Millisecond, LossCheck: true, CorruptLoss: true},
		// The sim's clock starts at the first packet it forwards: 10 s of probes from there see
		// rebinds at 3, 6, 9 s.
		{Name: "rebind", Profile: "rebind-port:first-rebind=3s:rebind-freq=3s", Capture: true, RTTCount: 5000, RTTInterval: 2 * time.Millisecond, Rebinds: 3},
	}
}

// withGSO makes a scenario's rate flows send GSO batches.
func withGSO(s Scenario) Scenario {
	s.RateGSO = true
	return s
}

// Quick is the subset `make test` runs: delay, loss (0% vs 5%), rate, a blackhole, corruption
// (caught by the receivers' checksums) and NAT rebinding. The RTT
// tail (p99) and the lossy profiles' medians are left to make sim-check: on a loaded 2-core CI
// machine they measure the machine more than the sim.
func Quick() []Scenario {
	var out []Scenario
	for _, s := range Full() {
		switch s.Name {
		case "simple-p2p":
			s.P99Check, s.Rates = false, []string{"down"}
			out = append(out, s)
		case "lossy-0", "lossy-5", "blackhole", "corrupt-5", "rebind":
			s.P50Check, s.P99Check = false, false
			out = append(out, s)
		}
	}
	return out
}

// CapacityFlow is one unpaced flow of a capacity scenario.
type CapacityFlow struct {
	Key      string // probes[key] in result.json
	Dir      string // down (to the client) or up
	GSOBatch int    // datagrams per send (UDP GSO) and GRO on the receiver; 0: one per syscall
}

// CapacityPayload is the UDP payload of capacity flows: 1500-byte IPv4 packets.
const CapacityPayload = 1472

// CapacityFlows are the flows a capacity scenario measures: endpoints sending one datagram per
// syscall (most QUIC stacks without GSO), and batches of 32 as a GSO-capable stack sends them.
func CapacityFlows() []CapacityFlow {
	return []CapacityFlow{
		{Key: "capacity_down", Dir: "down"}, {Key: "capacity_up", Dir: "up"},
		{Key: "capacity_gso_down", Dir: "down", GSOBatch: 32}, {Key: "capacity_gso_up", Dir: "up", GSOBatch: 32},
	}
}
