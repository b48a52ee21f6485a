package livefuzz

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The repository's rules load, each with the codes its names stand for.
func TestLoadRules(t *testing.T) {
	rules, err := LoadRules("../../conformance/fuzz-live/rules.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rules {
		if r.ID == "client-new-token" && (len(r.TransportCodes) != 1 || r.TransportCodes[0] != 0x0a) {
			t.Errorf("client-new-token: codes %v, want [0xa] (PROTOCOL_VIOLATION)", r.TransportCodes)
		}
		if r.ID == "h3-second-settings" && (len(r.ApplicationCodes) != 1 || r.ApplicationCodes[0] != 0x105) {
			t.Errorf("h3-second-settings: codes %v, want [0x105] (H3_FRAME_UNEXPECTED)", r.ApplicationCodes)
		}
	}
}

// A bad rules file is one line naming the file and the field.
func TestLoadRulesRefusesBadInput(t *testing.T) {
	for _, tc := range []struct{ yml, want string }{
		{"rules: []", "rules: no rules"},
		{"rules:\n  - {id: a, section: x, must: a MUST b, expect: {transport: [NOPE]}}", "rules[0].expect.transport[0]"},
		{"rules:\n  - {id: a, section: x, must: a MUST b, expect: {}}", "rules[0].expect: no error code"},
		{"rules:\n  - {id: a, section: x, must: should, expect: {transport: [NO_ERROR]}}", "rules[0].must"},
		{"rules:\n  - {id: a, section: x, must: MUST, expect: {application: [PROTOCOL_VIOLATION]}}", "rules[0].expect.application[0]"},
		{"rules:\n  - {id: A B, section: x, must: MUST, expect: {transport: [NO_ERROR]}}", "rules[0].id"},
		{"rules:\n  - {id: a, section: x, must: MUST, expect: {transport: [NO_ERROR]}, extra: 1}", "field extra not found"},
	} {
		p := filepath.Join(t.TempDir(), "rules.yml")
		if err := os.WriteFile(p, []byte(tc.yml), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadRules(p)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), p) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error %v, want one line naming %s and %q", tc.yml, err, p, tc.want)
		}
	}
}

func TestLoadCampaigns(t *testing.T) {
	cf, err := LoadCampaigns("../../conformance/fuzz-live/campaigns.yml")
	if err != nil {
		t.Fatal(err)
	}
	if len(cf.Campaigns) != 2 || cf.Campaigns[0].ALPN != "h3" {
		t.Errorf("campaigns %+v", cf.Campaigns)
	}
	p := filepath.Join(t.TempDir(), "c.yml")
	_ = os.WriteFile(p, []byte("campaigns:\n  - {name: x, abbr: X, alpn: h2, server_testcase: t}\nliveness_file_bytes: 1\nmemory_growth_limit_mib: 1\nidle_cpu_limit: 1\n"), 0o644)
	if _, err := LoadCampaigns(p); err == nil || !strings.Contains(err.Error(), "campaigns[0].alpn") {
		t.Errorf("alpn h2: %v, want an error naming campaigns[0].alpn", err)
	}
}

func TestCodeName(t *testing.T) {
	for _, tc := range []struct {
		app  bool
		code uint64
		want string
	}{{false, 0x0a, "PROTOCOL_VIOLATION (0xa)"}, {true, 0x104, "H3_CLOSED_CRITICAL_STREAM (0x104)"},
		{false, 0x128, "CRYPTO_ERROR (0x128: TLS alert 40)"}, {true, 0x9999, "0x9999"}} {
		if got := CodeName(tc.app, tc.code); got != tc.want {
			t.Errorf("CodeName(%v, %#x) = %q, want %q", tc.app, tc.code, got, tc.want)
		}
	}
}

// The fuzzing client's model (images/quicfuzz/livefuzz, Python) agrees with this repository's
// rules and seeds, and its own tests pass: run with the host's python3 (the model's modules
// need nothing beyond the standard library; test_campaign needs aioquic and runs at image build).
func TestFuzzerModel(t *testing.T) {
	cmd := exec.Command("python3", "-W", "error::ResourceWarning", "-m", "unittest", "test_oracle", "test_repository")
	cmd.Dir = "../../images/quicfuzz/tests"
	cmd.Env = append(os.Environ(), "PYTHONPATH=..", "PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python3 -m unittest (images/quicfuzz): %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "\nOK") {
		t.Fatalf("unittest did not say OK:\n%s", out)
	}
}
