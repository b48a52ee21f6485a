// Package h2test provides the servers the lab's HTTP/2 tests run against on loopback (package h2's
// cases, the probes, and the h2check, h2probe and h2upload commands): x/net's real HTTP/2 server
// serving the lab's h2 contract (the reference), a minimal raw-frame server that can be told to
// break one flow-control rule at a time (the misbehaving servers), and the one self-signed test
// certificate they all use. Test use only: nothing outside tests imports it.
package h2test
