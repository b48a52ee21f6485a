package main

import (
	"bytes"
	"net/http"
	"runtime"
	"strings"
	"testing"
)

func TestFlagErrorsNameTheFlag(t *testing.T) {
	tests := []struct {
		args []string
		flag string
	}{
		{[]string{"--upstream", "http://u:1"}, "--mode"},
		{[]string{"--mode", "proxy", "--upstream", "http://u:1"}, "--mode"},
		{[]string{"--mode", "edge", "--h2c"}, "--upstream"},
		{[]string{"--mode", "edge", "--h2c", "--upstream", "ftp://u:1"}, "--upstream"},
		{[]string{"--mode", "edge", "--h2c", "--upstream", "http://u:1/path"}, "--upstream"},
		{[]string{"--mode", "edge", "--upstream", "http://u:1"}, "--cert"},
		{[]string{"--mode", "edge", "--h2c", "--cert", "c", "--key", "k", "--upstream", "http://u:1"}, "--h2c"},
		{[]string{"--mode", "origin", "--cert", "c", "--upstream", "http://u:1"}, "--key"},
		{[]string{"--mode", "origin", "--h2c", "--upstream", "http://u:1"}, "--h2c"},
		{[]string{"--mode", "origin", "--text", "--upstream", "http://u:1"}, "--text"},
		{[]string{"--mode", "origin", "--upstream-ca", "ca.pem", "--upstream", "http://u:1"}, "--upstream-ca"},
		{[]string{"--mode", "origin", "--upstream", "http://u:1", "--max-message-bytes", "0"}, "--max-message-bytes"},
		{[]string{"--mode", "origin", "--upstream", "http://u:1", "--max-message-bytes", "x"}, "-max-message-bytes"},
		{[]string{"--mode", "origin", "--upstream", "http://u:1", "--max-header-bytes", "-1"}, "--max-header-bytes"},
		{[]string{"--mode", "origin", "--upstream", "http://u:1", "--misbehave", "sometimes"}, "--misbehave"},
		{[]string{"--mode", "origin", "--upstream", "http://u:1", "--bogus"}, "-bogus"},
		{[]string{"--mode", "origin", "--upstream", "http://u:1", "extra"}, "extra"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := run(tt.args, &stdout, &stderr)
		msg := stderr.String()
		if code != 2 || !strings.Contains(msg, tt.flag) || strings.Count(msg, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want 2 and one line naming %s", tt.args, code, msg, tt.flag)
		}
	}
}

func TestFlagDefaultsAndVersion(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--version"}, &stdout, &stderr); code != 0 || stdout.String() != "wirelab grpcweb-converter "+runtime.Version()+"\n" {
		t.Fatalf("--version: exit %d, %q", code, stdout.String())
	}
	for mode, listen := range map[string]string{"edge": ":8443", "origin": ":8080"} {
		cfg, _, _, err := parseFlags([]string{"--mode", mode, "--h2c=" + boolString(mode == "edge"), "--upstream", "https://u:1/"})
		if err != nil || cfg.listen != listen || cfg.maxMessageBytes != 4<<20 || cfg.misbehave != behaveCorrectly || cfg.upstream.String() != "https://u:1" {
			t.Errorf("%s defaults: %+v, %v", mode, cfg, err)
		}
	}
}

func boolString(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// TestMaxHeaderBytes: the limit reaches the client-facing server.
func TestMaxHeaderBytes(t *testing.T) {
	origin := startConverter(t, "--mode", "origin", "--upstream", "http://"+closedPort(t), "--max-header-bytes", "2048")
	req, _ := http.NewRequest(http.MethodPost, "http://"+origin+unaryPath, strings.NewReader(""))
	req.Header.Set("Content-Type", "application/grpc-web")
	req.Header.Set("X-Big", strings.Repeat("x", 8<<10))
	resp, err := noProxyTransport(false).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("status %d, want 431", resp.StatusCode)
	}
}

// Every misbehaviour is a choice of --misbehave, named in its error.
func TestMisbehavioursParse(t *testing.T) {
	for _, m := range misbehaviours {
		cfg, _, _, err := parseFlags([]string{"--mode", "origin", "--upstream", "http://u:1", "--misbehave", string(m)})
		if err != nil || cfg.misbehave != m {
			t.Errorf("--misbehave %s: %v, %q", m, err, cfg.misbehave)
		}
	}
	if _, err := parseMisbehaviour("sometimes"); err == nil || !strings.Contains(err.Error(), string(canonicalErrorTrailers)) {
		t.Errorf("unknown misbehaviour: %v, want the choices listed", err)
	}
}
