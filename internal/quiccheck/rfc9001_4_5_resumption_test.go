package quiccheck

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/quictrace"
	"github.com/wirelab/wirelab/internal/tshark/tsharktest"
)

// resumption: the second handshake showed no Certificate when its Handshake packets were not
// decrypted (the client logged no keys for it), even after a full handshake.
func TestResumptionNeedsPSK(t *testing.T) {
	sh := func(exts ...uint16) quictrace.TLSMessage {
		return quictrace.TLSMessage{Type: quictrace.TLSServerHello, Extensions: exts}
	}
	ee := quictrace.TLSMessage{Type: quictrace.TLSEncryptedExtensions}
	cert := quictrace.TLSMessage{Type: quictrace.TLSCertificate}
	first := []quictrace.Packet{serverInitial("s1", sh()), serverHandshake("s1", ee, cert)}
	build := func(second ...quictrace.Packet) *quictrace.Trace {
		return trace(append(append([]quictrace.Packet{}, first...), second...)...)
	}
	wantPass(t, checkResumption(build(serverInitial("s2", sh(quictrace.TLSExtPreSharedKey)), serverHandshake("s2", ee))))
	undecrypted := serverHandshake("s2")
	undecrypted.Decrypted = false
	wantFail(t, checkResumption(build(serverInitial("s2", sh()), undecrypted)), "no pre_shared_key")
	wantFail(t, checkResumption(build(serverInitial("s2", sh(quictrace.TLSExtPreSharedKey)), undecrypted)), "not decrypted")
	wantFail(t, checkResumption(build(serverInitial("s2", sh(quictrace.TLSExtPreSharedKey)), serverHandshake("s2", ee, cert))), "carries a Certificate")
}

// A real full-handshake pair whose client logged no secrets for the second connection: with
// the Certificate hidden, "no Certificate in the second handshake" read it as resumed.
func TestResumptionUndecryptedFullHandshake(t *testing.T) {
	r := tsharktest.Need(t)
	keys := firstConnectionKeys(t, filepath.Join(testdata, "fullhandshakes.keys"))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tr, err := quictrace.Load(ctx, r, filepath.Join(testdata, "fullhandshakes.pcap"), keys, "")
	if err != nil {
		t.Fatal(err)
	}
	hs := tr.Handshakes()
	if len(hs) != 2 {
		t.Fatalf("%d handshakes", len(hs))
	}
	if _, by := serverTLSByHandshake(tr); hasTLS(by[hs[1]], quictrace.TLSCertificate) {
		t.Fatal("the second handshake is still decrypted: the keylog filter did not work")
	}
	wantFail(t, checkResumption(tr), "no pre_shared_key")
}

// firstConnectionKeys writes a keylog holding only the first connection's secrets (the first
// client random in the file).
func firstConnectionKeys(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	first := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 3 {
			continue
		}
		if first == "" {
			first = fs[1]
		}
		if fs[1] == first {
			out = append(out, sc.Text())
		}
	}
	dst := filepath.Join(t.TempDir(), "first.keys")
	if err := os.WriteFile(dst, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}
