// Package netem is the pure decision engine of the network-emulation sidecar.
//
// The kernel in the lab has no sch_netem, so impairment runs in userspace. The
// I/O layer is the sim sidecar (images/sim): policy routing steers every packet
// arriving from one side into that side's TUN device. With offload on (the
// default) one read from it may hold a whole GSO batch, which the sim cuts into
// the wire packets the sender's kernel would have sent, with complete
// checksums; either way the engine sees single wire-sized IP packets. The sim
// hands each to an Emulator and gets back a Decision: drop it (and why), or
// release it at a virtual time, possibly corrupted, duplicated, CE-marked or
// NAT-rewritten. Released packets are written back to the TUN device (with
// offload, a run of one flow's packets due together as one GSO batch that the
// kernel segments again) and the kernel routes them on to the other side.
// The engine itself starts no goroutines, reads no clock and does no I/O; time
// is the caller's time.Duration since the start of the run. Every random choice
// comes from a seed, so the same seed and packet sequence give the same
// decisions.
//
// Each direction is a Link. A packet that reaches a Link goes through, in order:
//
//  1. random draws for every impairment, each from its own substream
//     (seed, direction, impairment), taken whether or not the impairment
//     ends up mattering, so enabling one impairment never shifts another;
//  2. drop checks: NAT (unknown binding), droplist, blackhole, random loss,
//     Gilbert-Elliott loss, then the drop-tail queue;
//  3. the rate limiter: departure = max(now, previous departure) + size*8/rate;
//  4. ECN: CE marking of ECT packets when the queue is above a threshold;
//  5. propagation: release = departure + delay + jitter, never before an
//     earlier packet unless jitter reordering is allowed;
//  6. reordering (the packet overtakes Gap earlier ones), duplication
//     (a second copy through the same queue), corruption (one byte inside the
//     L4 payload, optionally within its first CorruptWindow bytes; the
//     UDP/TCP checksum catches it unless CorruptDeliver has the I/O layer
//     recompute the checksum so the endpoint itself must reject the packet.
//     The sim writes a packet with a stale checksum alone, never in a GSO
//     batch, whose checksums the kernel would compute afresh).
//
// Dropped packets do not consume link capacity: loss is applied before the
// bottleneck, as netem does.
package netem
