package tshark

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDockerArgs(t *testing.T) {
	dir := t.TempDir()
	p, k := filepath.Join(dir, "a.pcap"), filepath.Join(dir, "keys.log")
	os.WriteFile(p, nil, 0o644)
	os.WriteFile(k, nil, 0o644)
	args, _, err := (&Tool{}).dockerArgs(p, k, []string{"-d", "udp.port==443,quic", "-T", "json"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"run", "--rm", "--network", "none", "-v", dir + ":/t0:ro", Image, "-r", "/t0/a.pcap", "-n",
		"-o", "tls.keylog_file:/t0/keys.log", "-d", "udp.port==443,quic", "-T", "json"}
	if len(args) != len(want) {
		t.Fatalf("args %q", args)
	}
	for i := range want {
		if args[i] != want[i] {
			t.Fatalf("args %q, want %q", args, want)
		}
	}
	if _, _, err := (&Tool{}).dockerArgs(filepath.Join(dir, "missing.pcap"), "", nil); err == nil {
		t.Error("a missing trace: no error")
	}
}
