package quiccheck

import "github.com/wirelab/wirelab/internal/quictrace"

var rebindAddr = Check{
	Name:        "rebind-addr",
	Requirement: "RFC 9000 §9.3, §8.2",
	Reads:       WholeTrace,
	Description: "rebind-port, with new paths from more than one client IP",
	Run:         checkRebindAddr,
}

// checkRebindAddr (rebind-addr): like rebind-port, and the server saw more than one client IP.
func checkRebindAddr(t *quictrace.Trace) Result { return checkRebind("rebind-addr", t, true) }
