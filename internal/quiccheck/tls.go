package quiccheck

import "github.com/wirelab/wirelab/internal/quictrace"

// serverTLSByHandshake groups the TLS messages servers sent in long header packets by the
// server's SCID (= handshake), in order of first appearance.
func serverTLSByHandshake(t *quictrace.Trace) ([]string, map[string][]quictrace.TLSMessage) {
	var order []string
	by := map[string][]quictrace.TLSMessage{}
	for _, p := range t.Filter(func(p *quictrace.Packet) bool { return p.Dir == quictrace.ServerToClient && p.LongHdr }) {
		if _, ok := by[p.SCID]; !ok {
			order = append(order, p.SCID)
			by[p.SCID] = nil
		}
		by[p.SCID] = append(by[p.SCID], p.TLS...)
	}
	return order, by
}

func hasTLS(ms []quictrace.TLSMessage, typ int) bool {
	for _, m := range ms {
		if m.Type == typ {
			return true
		}
	}
	return false
}

func firstTLS(ms []quictrace.TLSMessage, typ int) (quictrace.TLSMessage, bool) {
	for _, m := range ms {
		if m.Type == typ {
			return m, true
		}
	}
	return quictrace.TLSMessage{}, false
}
