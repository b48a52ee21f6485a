package tshark

import (
	"fmt"
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
	want := []string{"run", "--rm", "--network", "none", "-v", dir + ":/t0:ro", "--entrypoint", "tshark", Image, "-r", "/t0/a.pcap", "-n",
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

// With a serving container (Serve), a pass over files under its folder runs in it at the same
// paths; a file outside still gets a container of its own.
func TestServedPassesExecInTheServingContainer(t *testing.T) {
	dir := t.TempDir()
	p, k := filepath.Join(dir, "cell", "a.pcap"), filepath.Join(dir, "cell", "keys.log")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, nil, 0o644)
	os.WriteFile(k, nil, 0o644)
	tool := &Tool{server: "c1", served: dir}
	args, _, err := tool.dockerArgs(p, k, []string{"-T", "json"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"exec", "c1", "tshark", "-r", p, "-n", "-o", "tls.keylog_file:" + k, "-T", "json"}
	if fmt.Sprint(args) != fmt.Sprint(want) {
		t.Errorf("args %q, want %q", args, want)
	}
	outside := filepath.Join(t.TempDir(), "b.pcap")
	os.WriteFile(outside, nil, 0o644)
	if args, _, _ := tool.dockerArgs(outside, "", nil); args[0] != "run" {
		t.Errorf("a trace outside the served folder: %q", args)
	}
}
