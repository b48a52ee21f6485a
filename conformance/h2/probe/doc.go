// Package probe holds wirelab's HTTP/2 robustness probes: bounded reproductions of the known
// HTTP/2 denial-of-service classes (rapid reset, CONTINUATION flood, the 2019 floods of
// CVE-2019-9511..9518, MadeYouReset) against one server address.
//
// Each probe (one file each, named after its attack) drives one abusive raw connection (x/net's
// Framer over TLS) while a separate well-behaved client (x/net's Transport) keeps requesting
// GET /: sequentially before the probe (the baseline), every GoodInterval during it. A probe
// stops at its bound (limits.go: frames and seconds, then a grace period) or when the server
// cuts the abusive connection, whichever comes first.
//
// The floods of answered frames (PING, SETTINGS, invalid requests) do not read while they
// flood: the attack is that the answers pile up in the server. They watch for FIN/RST with
// poll(2) instead, and read only after the grace period, to find a GOAWAY behind the answers.
//
// Verdict: cut if the server sent GOAWAY or closed the connection within the bound; latency_ok
// if no well-behaved request failed and its p95 during the probe stayed within
// max(factor x baseline p50, baseline p95 + scale x LatencySlack); passed only with both.
//
// The machine is measured next to the server (meter.go, machine.go), because a busy machine
// stretches the server's work on the flood and holds up the probe itself: scale is the
// machine's runnable tasks per CPU (at least 1, at most MaxSlackScale) in quiet windows before
// the flood and after the grace; a meter goroutine records how late the probe's own wake-ups
// are. A p95 over the limit by no more than the probe woke late, or with a run queue beyond
// MaxSlackScale, is not judged: the probe runs again (Attempts in all), and a probe the machine
// never let judge reports not-judged. The numbers are in every verdict.
//
// The server is expected to follow the lab's h2 contract: GET / and GET /1m.bin (1 MiB).
package probe
