// Command sim is wirelab's network-emulation sidecar: the router between the client and the
// server network whose userspace engine (internal/netem) delays, limits, drops, corrupts,
// duplicates, reorders, CE-marks and NAT-rebinds packets according to a profile.
//
// It claims .2 / ::2 (the endpoints' gateway) on both networks, steers every forwarded packet
// through a TUN device per side, writes pcaps of both sides of the engine (trace_node_left.pcap =
// client side, trace_node_right.pcap = server side, as upstream names them), stats.json, and opens TCP port
// 57832 once it forwards (the upstream readiness contract).
package main

import (
	"crypto/rand"
	"encoding/binary"
	"flag"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"syscall"
	"time"

	"github.com/wirelab/wirelab/internal/capture"
	"github.com/wirelab/wirelab/internal/netem"
	"github.com/wirelab/wirelab/internal/profile"
	"github.com/wirelab/wirelab/internal/simstats"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "sim:", err)
		os.Exit(1)
	}
}

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// atoiOr is s as a number, or def when s is empty or not one.
func atoiOr(s string, def int) int {
	if n, err := strconv.Atoi(s); err == nil && n >= 0 {
		return n
	}
	return def
}

func run() error {
	profiles := flag.String("profiles", env("SIM_PROFILES", "/etc/wirelab/profiles.yml"), "profile file")
	ref := flag.String("profile", env("SIM_PROFILE", "simple-p2p"), "profile reference (name[:path=value...])")
	seedFlag := flag.String("seed", env("SIM_SEED", ""), "seed for every random decision (default: random, printed)")
	logs := flag.String("logs", env("SIM_LOGS", "/logs"), "where pcaps and stats.json go")
	captureOn := flag.Bool("capture", env("SIM_CAPTURE", "1") == "1", "write pcaps of both sides of the engine")
	tcpSnap := flag.Int("tcp-snap", atoiOr(env("SIM_TCP_SNAP", ""), defaultTCPSnap), "bytes of each TCP packet the traces keep (0: all)")
	readyPort := flag.Int("ready-port", 57832, "TCP port opened once the engine forwards")
	offload := flag.Bool("offload", env("SIM_OFFLOAD", "1") == "1", "GSO batches through the TUN devices (vnet headers) and GRO on the sim's interfaces")
	engine := flag.String("engine", env("SIM_ENGINE", "userspace"), "userspace (the emulator) or kernel (plain forwarding, no impairment: the machine's limit for make sim-check)")
	lag := flag.Bool("lag", false, "measure the machine instead: sample scheduling lag until SIGTERM, then print it as JSON (make sim-check)")
	flag.Parse()
	if *lag {
		return sampleLag()
	}
	// The release writer pins one P (see writeLoop) and the two readers block in read(2); spare Ps
	// let a reader returning from its syscall find one at once instead of queueing for it.
	runtime.GOMAXPROCS(runtime.NumCPU() + 3)
	// Fewer GC cycles than the default, but not none: with the collector off every packet
	// buffer is fresh memory, and the page faults to map it cost the engine's threads more
	// (0.5 ms of release lateness at the start of a run) than the cycles they save.
	debug.SetGCPercent(400)

	seed, err := parseSeed(*seedFlag)
	if err != nil {
		return err
	}
	file, err := profile.LoadFile(*profiles)
	if err != nil {
		return err
	}
	resolved, err := file.Resolve(*ref)
	if err != nil {
		return err
	}
	emu, err := resolved.Emulator(seed)
	if err != nil {
		return err
	}
	sides, err := sidesFromEnv()
	if err != nil {
		return err
	}
	switch *engine {
	case "userspace":
	case "kernel":
		return runKernelForwarding(sides, *readyPort, *offload)
	default:
		return fmt.Errorf("SIM_ENGINE: unknown engine %q (want userspace or kernel)", *engine)
	}
	tuns := map[string]tunDev{}
	for _, s := range sides {
		if tuns[s.name], err = openTUN(s.tun, *offload); err != nil {
			return err
		}
	}
	if err := setupNetwork(sides, *offload); err != nil {
		return err
	}
	if err := os.MkdirAll(*logs, 0o755); err != nil {
		return err
	}
	fmt.Printf("sim: profile %s (%s), seed %d; client side %s, server side %s; offload %v\n",
		resolved.Name, resolved.Description, seed, sides[0].iface, sides[1].iface, *offload)

	var lab []netip.Prefix
	for _, s := range sides {
		lab = append(lab, s.net4)
		if s.net6.IsValid() {
			lab = append(lab, s.net6)
		}
	}
	fwd := newForwarder(emu, lab)
	if *captureOn {
		for i, name := range traceNames { // client, server side
			if fwd.traces[i], err = newPcapWriter(filepath.Join(*logs, name), *tcpSnap); err != nil {
				return err
			}
		}
	}
	stop, writerDone, tickerDone := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go fwd.readLoop(tuns["client"], netem.ToServer)
	go fwd.readLoop(tuns["server"], netem.ToClient)
	go func() { defer close(writerDone); fwd.writeLoop(stop) }()

	statsPath := filepath.Join(*logs, simstats.File)
	go func() {
		defer close(tickerDone)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				_ = writeStats(statsPath, fwd.snapshot(false))
				fwd.traces[sideClient].flush()
				fwd.traces[sideServer].flush()
			}
		}
	}()

	ln, err := net.Listen("tcp", ":"+strconv.Itoa(*readyPort))
	if err != nil {
		return fmt.Errorf("readiness port: %w", err)
	}
	go acceptAndClose(ln)
	fmt.Printf("sim: forwarding; ready on TCP %d\n", *readyPort)

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	<-sigs
	// The order makes stats.json's final mark true: the writer and the periodic rewrite stop,
	// the engine is frozen, the traces are sealed, and only then are the last counters written.
	close(stop)
	<-writerDone
	<-tickerDone
	final := fwd.snapshot(true)
	if *captureOn {
		if err := sealTraces(*logs, fwd.traces); err != nil {
			return err
		}
	}
	if err := writeStats(statsPath, final); err != nil {
		return err
	}
	fmt.Printf("sim: stopped after %.3fs: to-server %d in / %d out, to-client %d in / %d out\n",
		final.Seconds, final.ToServer.PacketsIn, final.ToServer.PacketsOut, final.ToClient.PacketsIn, final.ToClient.PacketsOut)
	return nil
}

// traceNames are the pcaps per side (sideClient, sideServer), named as upstream names them.
var traceNames = [2]string{"trace_node_left.pcap", "trace_node_right.pcap"}

// sealTraces closes both pcaps and then writes capture.json: its existence says the traces are
// complete, and its counts let a later reader prove they still are.
func sealTraces(dir string, traces [2]*pcapWriter) error {
	files := map[string]capture.FileSeal{}
	for i, t := range traces {
		st, err := t.close()
		if err != nil {
			return fmt.Errorf("closing %s: %w", traceNames[i], err)
		}
		files[traceNames[i]] = st
	}
	return capture.Write(dir, files)
}

// sidesFromEnv reads the two networks' subnets (SIM_CLIENT_NET4/6, SIM_SERVER_NET4/6).
func sidesFromEnv() ([]*side, error) {
	var sides []*side
	for i, name := range []string{"client", "server"} {
		s := &side{name: name, tun: "tun" + name[:1], table: 100 + i}
		for _, v := range []struct {
			key string
			dst *netip.Prefix
			req bool
		}{{"SIM_" + upper(name) + "_NET4", &s.net4, true}, {"SIM_" + upper(name) + "_NET6", &s.net6, false}} {
			val := os.Getenv(v.key)
			if val == "" {
				if v.req {
					return nil, fmt.Errorf("%s is not set", v.key)
				}
				continue
			}
			p, err := netip.ParsePrefix(val)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", v.key, err)
			}
			*v.dst = p.Masked()
		}
		sides = append(sides, s)
	}
	return sides, nil
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 32
		}
	}
	return string(b)
}

func parseSeed(s string) (uint64, error) {
	if s == "" {
		var b [8]byte
		_, _ = rand.Read(b[:])
		return binary.BigEndian.Uint64(b[:]) >> 1, nil
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("seed %q: want an unsigned integer", s)
	}
	return v, nil
}

func acceptAndClose(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		c.Close()
	}
}
