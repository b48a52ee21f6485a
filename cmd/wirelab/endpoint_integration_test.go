package main

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The endpoint contract: /setup.sh, /wait-for-it.sh and /run_endpoint.sh of wirelab/endpoint,
// on a wirelab-style network (sim = default gateway, endpoints without NET_ADMIN) and on an
// upstream-style one.

// labNetwork creates a network the way wirelab topologies do: docker's bridge holds no IPv4
// address and the endpoints' default gateways (.2 / ::2) belong to the sim.
func labNetwork(t *testing.T, id, v4, v6 string) string {
	name := id + "-lab"
	docker(t, "network", "create", "--internal", "--label", "wirelab.run="+id,
		"-o", "com.docker.network.bridge.inhibit_ipv4=true",
		"--subnet", v4+".0/24", "--gateway", v4+".1", "--aux-address", "DefaultGatewayIPv4="+v4+".2",
		"--ipv6", "--subnet", v6+"::/64", "--gateway", v6+"::1", "--aux-address", "DefaultGatewayIPv6="+v6+"::2",
		name)
	return name
}

// fakeSim claims the gateway addresses and opens the readiness port 57832, as the sim does.
func fakeSim(t *testing.T, id, network, v4, v6 string) {
	docker(t, "run", "-d", "--label", "wirelab.run="+id, "--name", id+"-sim", "--network", network,
		"--network-alias", "sim", "--cap-drop", "ALL", "--cap-add", "NET_ADMIN", "--entrypoint", "sh",
		"wirelab/endpoint", "-c", "ip addr add "+v4+".2/24 dev eth0 && ip -6 addr add "+v6+"::2/64 dev eth0 nodad && exec iperf3 -s -p 57832")
}

// endpoint runs one command in a fresh endpoint container and returns exit code and output.
func endpoint(t *testing.T, id, network string, extra []string, args ...string) (int, string) {
	t.Helper()
	argv := append([]string{"run", "--rm", "--label", "wirelab.run=" + id, "--network", network}, extra...)
	out, err := exec.Command("docker", append(argv, args...)...).CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), string(out)
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, string(out)
}

func TestIntegrationEndpointContract(t *testing.T) {
	bin := integration(t)
	id := runID(t, "it-endpoint")
	defer func() {
		wirelab(t, bin, "clean", "--run-id", id)
		assertNothingLeft(t, id)
	}()
	noCaps := []string{"--cap-drop", "ALL"}
	lab := labNetwork(t, id, "198.19.250", "fd00:5717:fffa")
	fakeSim(t, id, lab, "198.19.250", "fd00:5717:fffa")

	t.Run("setup verifies sim routes without NET_ADMIN", func(t *testing.T) {
		code, out := endpoint(t, id, lab, noCaps, "--entrypoint", "/setup.sh", "wirelab/endpoint")
		if code != 0 || !strings.Contains(out, "(-4) is via the sim 198.19.250.2") || !strings.Contains(out, "(-6) is via the sim fd00:5717:fffa::2") {
			t.Fatalf("exit %d:\n%s", code, out)
		}
	})
	t.Run("setup fails where the sim is not the gateway and routes cannot be added", func(t *testing.T) {
		plain := id + "-plain"
		docker(t, "network", "create", "--internal", "--label", "wirelab.run="+id, "--subnet", "198.19.251.0/24", plain)
		ip := []string{"--ip", "198.19.251.100"} // upstream's endpoint address; the sim would be .2
		code, out := endpoint(t, id, plain, append(ip, noCaps...), "--entrypoint", "/setup.sh", "wirelab/endpoint")
		if code != 1 || !strings.Contains(out, "ERROR: 193.167.0.0/16 is not routed via the sim 198.19.251.2") {
			t.Fatalf("exit %d, want 1:\n%s", code, out)
		}
		// Under an upstream-style runner the endpoint has NET_ADMIN and sets the routes itself.
		code, out = endpoint(t, id, plain, append(ip, "--cap-add", "NET_ADMIN"), "--entrypoint", "sh", "wirelab/endpoint",
			"-c", "/setup.sh && ip route get 193.167.100.100")
		if code != 0 || !strings.Contains(out, "193.167.100.100 via 198.19.251.2") {
			t.Fatalf("with NET_ADMIN: exit %d:\n%s", code, out)
		}
	})
	t.Run("wait-for-it", func(t *testing.T) {
		code, out := endpoint(t, id, lab, noCaps, "--entrypoint", "/wait-for-it.sh", "wirelab/endpoint", "sim:57832", "-s", "-t", "10", "--", "echo", "ran")
		if code != 0 || !strings.Contains(out, "ran") {
			t.Fatalf("open port: exit %d:\n%s", code, out)
		}
		code, out = endpoint(t, id, lab, noCaps, "--entrypoint", "/wait-for-it.sh", "wirelab/endpoint", "sim:57999", "-s", "-t", "1", "--", "echo", "ran")
		if code != 1 || strings.Contains(out, "\nran") || !strings.Contains(out, "timeout") {
			t.Fatalf("closed port, strict: exit %d, want 1 without running the command:\n%s", code, out)
		}
	})
	t.Run("base endpoint answers 127 for any test case", func(t *testing.T) {
		for _, role := range []string{"server", "client"} {
			code, out := endpoint(t, id, lab, append(noCaps, "-e", "ROLE="+role, "-e", "TESTCASE=no-such-case"), "wirelab/endpoint")
			if code != 127 {
				t.Fatalf("%s: exit %d, want 127:\n%s", role, code, out)
			}
		}
	})
	t.Run("wirelab-serve: a stop is success, a crash is not", func(t *testing.T) {
		if code, out := endpoint(t, id, "none", noCaps, "--entrypoint", "wirelab-serve", "wirelab/endpoint", "sh", "-c", "exit 3"); code != 3 {
			t.Fatalf("a server that fails: exit %d, want 3:\n%s", code, out)
		}
		name := id + "-serve"
		docker(t, "run", "-d", "--name", name, "--label", "wirelab.run="+id, "--network", "none", "--cap-drop", "ALL",
			"--entrypoint", "wirelab-serve", "wirelab/endpoint", "sleep", "300")
		// The contract is about a running server: wait until wirelab-serve has started it (and so
		// installed its trap). A stop that lands while bash, PID 1, is still starting up meets
		// no handler yet and waits for docker's SIGKILL, as under a loaded CI machine.
		for deadline := time.Now().Add(10 * time.Second); !strings.Contains(docker(t, "top", name), "sleep 300"); {
			if time.Now().After(deadline) {
				t.Fatal("wirelab-serve did not start its server within 10 s")
			}
			time.Sleep(50 * time.Millisecond)
		}
		start := time.Now()
		docker(t, "stop", "-t", "10", name)
		if state := docker(t, "inspect", "-f", "{{.State.ExitCode}}", name); state != "0" || time.Since(start) > 5*time.Second {
			t.Fatalf("stopped server: exit %s after %s, want 0 at once", state, time.Since(start))
		}
	})
	t.Run("an upstream-style Dockerfile builds with only FROM changed", func(t *testing.T) {
		tag := "wirelab-it/upstream-endpoint:" + id
		if out, err := exec.Command("docker", "build", "-q", "-t", tag, "testdata/upstream-endpoint").CombinedOutput(); err != nil {
			t.Fatalf("build: %v\n%s", err, out)
		}
		defer exec.Command("docker", "rmi", "-f", tag).Run()
		if code, out := endpoint(t, id, lab, append(noCaps, "-e", "ROLE=server", "-e", "TESTCASE=zerortt"), tag); code != 127 {
			t.Fatalf("unsupported case: exit %d, want 127:\n%s", code, out)
		}
		if code, out := endpoint(t, id, lab, append(noCaps, "-e", "ROLE=server", "-e", "TESTCASE=handshake"), tag); code != 0 || !strings.Contains(out, "would run server") {
			t.Fatalf("supported case: exit %d:\n%s", code, out)
		}
	})
}
