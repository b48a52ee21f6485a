package quiccheck

import (
	"fmt"
	"strings"

	"github.com/wirelab/wirelab/internal/quictrace"
)

func versions(vs []uint32) string {
	var s []string
	for _, v := range vs {
		s = append(s, fmt.Sprintf("0x%x", v))
	}
	return "[" + strings.Join(s, " ") + "]"
}

// checkVersionAndCount is upstream's common part: server Initials only v1, n handshakes.
func checkVersionAndCount(name string, t *quictrace.Trace, want int) (Result, bool) {
	vs := t.ServerInitialVersions()
	if len(vs) == 0 {
		return fail(name, "no server-sent Initial packet in the trace"), false
	}
	if len(vs) != 1 || vs[0] != quictrace.Version1 {
		return fail(name, "server Initials use versions %s, want only 0x1", versions(vs)), false
	}
	if hs := t.Handshakes(); len(hs) != want {
		return fail(name, "%d handshakes (distinct server SCIDs in server Initials), want %d", len(hs), want), false
	}
	return Result{}, true
}

// handshakeCount returns a check for exactly n handshakes with v1 server Initials
// (handshakeloss and handshakecorruption: n = 50).
func handshakeCount(name string, n int) func(t *quictrace.Trace) Result {
	return func(t *quictrace.Trace) Result {
		if r, ok := checkVersionAndCount(name, t, n); !ok {
			return r
		}
		return pass(name, "%d handshakes, server Initials v1", n)
	}
}
