package quictrace

import "testing"

// Datagrams to and from a server's preferred address (another port) get their direction from
// the server's IP, learned on port 443; unrelated traffic stays unknown.
func TestDirectionByServerAddress(t *testing.T) {
	tr := &Trace{Datagrams: []Datagram{
		{Src: "198.18.0.100:5000", Dst: "198.18.1.100:443", Dir: ClientToServer},
		{Src: "198.18.0.100:5000", Dst: "198.18.1.100:4443", Packets: []Packet{{}}},
		{Src: "[fd00:5717::100]:5000", Dst: "[fd00:5717:0:1::100]:443", Dir: ClientToServer},
		{Src: "[fd00:5717:0:1::100]:4443", Dst: "[fd00:5717::100]:5000"},
		{Src: "10.0.0.1:1", Dst: "10.0.0.2:2"},
		// client and server on one IP (loopback): the preferred-address port decides
		{Src: "198.18.1.100:4443", Dst: "198.18.1.100:5000"},
		{Src: "198.18.1.100:5000", Dst: "198.18.1.100:4443"},
	}}
	directByServerAddress(tr)
	want := []Direction{ClientToServer, ClientToServer, ClientToServer, ServerToClient, DirUnknown, ServerToClient, ClientToServer}
	for i, d := range tr.Datagrams {
		if d.Dir != want[i] {
			t.Errorf("datagram %d: %v, want %v", i, d.Dir, want[i])
		}
	}
	if tr.Datagrams[1].Packets[0].Dir != ClientToServer {
		t.Error("packets must take their datagram's direction")
	}
}
