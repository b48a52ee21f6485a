package topology

import "testing"

func TestListensOn(t *testing.T) {
	udp := `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops
 1271: 0B00007F:B6E3 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 52341 2 0000000000000000 0
`
	udp6 := `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops
  338: 00000000000000000000000000000000:01BB 00000000000000000000000000000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 52400 2 0000000000000000 0
`
	if ListensOn(udp, "udp", 443) {
		t.Fatal("only a resolver socket (port 0xB6E3): not listening on 443")
	}
	if !ListensOn(udp+udp6, "udp", 443) {
		t.Fatal("the dual-stack socket on [::]:443 should count")
	}
	if ListensOn(udp+udp6, "udp", 4443) {
		t.Fatal("4443 is not bound")
	}
}

func TestListensOnTCPNeedsListenState(t *testing.T) {
	tcp := `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 640012C6:01BB 640013C6:C350 01 00000000:00000000 00:00000000 00000000     0        0 1 1
`
	if ListensOn(tcp, "tcp", 443) {
		t.Fatal("an established connection on 443 is not a listener")
	}
	listen := tcp + `   1: 00000000:01BB 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 2 1
`
	if !ListensOn(listen, "tcp", 443) {
		t.Fatal("0.0.0.0:443 in LISTEN")
	}
}
