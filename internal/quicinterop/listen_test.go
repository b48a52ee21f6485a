package quicinterop

import "testing"

func TestListensOn(t *testing.T) {
	udp := `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops
 1271: 0B00007F:B6E3 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 52341 2 0000000000000000 0
`
	udp6 := `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops
  338: 00000000000000000000000000000000:01BB 00000000000000000000000000000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 52400 2 0000000000000000 0
`
	if listensOn(udp, 443) {
		t.Fatal("only a resolver socket (port 0xB6E3): not listening on 443")
	}
	if !listensOn(udp+udp6, 443) {
		t.Fatal("the dual-stack socket on [::]:443 should count")
	}
	if listensOn(udp+udp6, 4443) {
		t.Fatal("4443 is not bound")
	}
}
