// Package h2test provides the servers h2conf's tests run against on loopback: x/net's real
// HTTP/2 server serving the lab's h2 contract (the reference), and a minimal raw-frame server
// that can be told to break one flow-control rule at a time (the misbehaving servers). Test use
// only: nothing outside tests imports it.
package h2test
