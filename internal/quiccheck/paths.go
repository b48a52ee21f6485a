package quiccheck

import (
	"bytes"

	"github.com/wirelab/wirelab/internal/quictrace"
)

// netPath is one client/server address pair seen in client->server datagrams, in order of first use.
type netPath struct {
	Client, Server string // ip:port
	First          int    // index into Trace.Datagrams of the path's first client datagram
}

// netPaths lists the network paths the client used, in order of first use.
func netPaths(t *quictrace.Trace) []netPath {
	seen := map[[2]string]bool{}
	var out []netPath
	for i, d := range t.Datagrams {
		if d.Dir != quictrace.ClientToServer {
			continue
		}
		k := [2]string{d.Src, d.Dst}
		if !seen[k] {
			seen[k] = true
			out = append(out, netPath{Client: d.Src, Server: d.Dst, First: i})
		}
	}
	return out
}

func (p netPath) on(d *quictrace.Datagram) bool {
	return (d.Dir == quictrace.ClientToServer && d.Src == p.Client && d.Dst == p.Server) ||
		(d.Dir == quictrace.ServerToClient && d.Src == p.Server && d.Dst == p.Client)
}

// validated reports whether a PATH_CHALLENGE sent on p by the wanted side (DirUnknown: either) was
// answered by a PATH_RESPONSE with the same data on p.
func validated(t *quictrace.Trace, p netPath, by quictrace.Direction) bool {
	var challenges [][]byte
	for i := range t.Datagrams {
		d := &t.Datagrams[i]
		if !p.on(d) {
			continue
		}
		for _, pk := range d.Packets {
			for _, f := range pk.Frames {
				switch {
				case f.Type == quictrace.FramePathChallenge && (by == quictrace.DirUnknown || d.Dir == by):
					challenges = append(challenges, f.Data)
				case f.Type == quictrace.FramePathResponse && (by == quictrace.DirUnknown || d.Dir != by):
					for _, c := range challenges {
						if bytes.Equal(c, f.Data) {
							return true
						}
					}
				}
			}
		}
	}
	return false
}
