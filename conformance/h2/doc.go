// Package h2 holds wirelab's own HTTP/2 flow-control conformance cases: the RFC 9113
// requirements h2spec (RFC 7540 era) does not check. Each case drives a raw HTTP/2 connection
// over TLS with x/net's Framer and hpack, so the client controls every frame it sends and can
// account for every frame it receives.
//
// The cases are listed as data in cases.yml (name, requirement, description, timeout); each is a
// small function named after the section it verifies. Run executes a selection against a server
// that follows the lab's h2 contract: GET / (>= 1 KiB), GET /1m.bin (1 MiB), POST /upload (answers
// 200 with the decimal number of body bytes it consumed, or echoes the body where the server
// cannot count: nghttpd --echo-upload).
package h2
