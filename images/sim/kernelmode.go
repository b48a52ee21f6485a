package main

import (
	"fmt"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
)

// runKernelForwarding is SIM_ENGINE=kernel: the same addresses and topology, the kernel forwards
// between the two networks itself, nothing is impaired, captured or counted. It exists to
// measure the machine's own limit (make sim-check's capacity scenarios) next to the engine's.
// The firewall still refuses every destination outside the two lab subnets.
func runKernelForwarding(sides []*side, readyPort int, gro bool) error {
	var cmds [][]string
	for _, s := range sides {
		var err error
		if s.iface, err = findInterface(s.net4); err != nil {
			return fmt.Errorf("%s network: %w", s.name, err)
		}
		cmds = append(cmds, []string{"ip", "addr", "add", gateway(s.net4).String() + "/" + strconv.Itoa(s.net4.Bits()), "dev", s.iface})
		if s.net6.IsValid() {
			cmds = append(cmds, []string{"ip", "-6", "addr", "add", gateway(s.net6).String() + "/" + strconv.Itoa(s.net6.Bits()), "dev", s.iface, "nodad"})
		}
	}
	if err := runAll(cmds); err != nil {
		return err
	}
	if gro {
		enableGRO(sides)
	}
	if err := labOnlyFirewall(sides); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", ":"+strconv.Itoa(readyPort))
	if err != nil {
		return fmt.Errorf("readiness port: %w", err)
	}
	go acceptAndClose(ln)
	fmt.Printf("sim: kernel forwarding between %s and %s (no impairment, no capture); ready on TCP %d\n", sides[0].iface, sides[1].iface, readyPort)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	<-sigs
	return nil
}
