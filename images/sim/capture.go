package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// tcpdump records one side's wire, independently of the engine: the client side shows packets
// before the engine impaired them (to-server) and after (to-client), like upstream's traces.
type tcpdump struct{ cmd *exec.Cmd }

func startCapture(iface, path string) (*tcpdump, error) {
	// -U: write each packet as it comes, so a killed sim still leaves a readable pcap.
	// nice: on a 2-core machine the capture must not take the CPU from the engine's threads;
	// the kernel buffers packets for tcpdump meanwhile.
	cmd := exec.Command("nice", "-n", "10", "tcpdump", "-B", "8192", "-Z", "root", "-i", iface, "-s", "0", "-U", "-n", "-w", path, "ip or ip6")
	cmd.Stdout, cmd.Stderr = nil, os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("tcpdump on %s: %w", iface, err)
	}
	// Give tcpdump a moment to open the interface before traffic may start.
	for i := 0; i < 50; i++ {
		if st, err := os.Stat(path); err == nil && st.Size() > 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	return &tcpdump{cmd: cmd}, nil
}

func (t *tcpdump) stop() {
	_ = t.cmd.Process.Signal(syscall.SIGINT)
	done := make(chan struct{})
	go func() { _ = t.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		_ = t.cmd.Process.Kill()
	}
}
