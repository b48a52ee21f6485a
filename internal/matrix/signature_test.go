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

// A signature read back from a baseline matches the failure it was made from, also when the cut
// at sigLen falls on a space.
func TestSignatureRoundTrips(t *testing.T) {
	reason := "sends a headers frame that contains the te header field with any value other than \"trailers\": goaway frame (error code: PROTOCOL_ERROR) expected"
	for i := 0; i < 10; i++ {
		r := Result{Result: Failed, Reason: reason[i:]}
		if sig := Signature(r); !sigMatch(sig, sig) {
			t.Errorf("%q does not match itself as a glob", sig)
		}
	}
}

// The served files' random names (from the run's seed) do not split a failure into two.
func TestSignatureIgnoresFileNames(t *testing.T) {
	if x, y := SignatureOf(`protocol: the server chose "qwertyuiop", want "asdfghjklz"; dial server4:443/zxcvbnmasd`), SignatureOf(`protocol: the server chose "mnbvcxzlkj", want "poiuytrewq"; dial server4:443/lkjhgfdsaq`); x != y {
		t.Errorf("WebTransport endpoints and protocols in a reason: %q != %q", x, y)
	}
	a := SignatureOf("files: 0 of 1 missing, 1 differ; first: qazodywgxz (10485760 bytes served, 6852791 downloaded)")
	b := SignatureOf("files: 0 of 1 missing, 1 differ; first: efgkpwjayl (10485760 bytes served, 1044565 downloaded)")
	c := SignatureOf("client exited 1 (0 of 1 files downloaded): https://server4:443/upuprilkzd 200 3 conn=1 1032168B 31.0s")
	d := SignatureOf("client exited 1 (0 of 1 files downloaded): https://server4:443/mlvkpmmzoj 200 3 conn=1 864079B 46.1s")
	if a != b || c != d {
		t.Errorf("file names split signatures:\n%s\n%s\n%s\n%s", a, b, c, d)
	}
	if SignatureOf("connection closed") == SignatureOf("connection reset") {
		t.Error("ordinary words must stay")
	}
}
