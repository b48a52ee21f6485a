package matrix

import "testing"

// What varies between runs of the same failure becomes #: numbers, hex ids, Go's pointers.
func TestSignatureOfStable(t *testing.T) {
	a := SignatureOf("client exit 1: [interop] &{0x3ef8402f60c0}.Recv() = rpc error: code = Unavailable (4 of 50 files) conn 7a3f9c2e11")
	b := SignatureOf("client exit 1: [interop] &{0xc3e37698e00}.Recv() = rpc error: code = Unavailable (17 of 50 files) conn 00b1c2d3e4f5")
	if a != b {
		t.Errorf("same failure, two signatures:\n%s\n%s", a, b)
	}
	if c := SignatureOf("client exit 1: [interop] &{0x3ef8402f60c0}.Recv() = rpc error: code = Internal"); c == a {
		t.Errorf("another error code, the same signature %q", c)
	}
}
