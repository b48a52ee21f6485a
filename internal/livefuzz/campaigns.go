package livefuzz

import (
	"fmt"
	"os"

	"github.com/wirelab/wirelab/internal/quicinterop"
)

// Campaign is one application protocol a target is fuzzed over (conformance/fuzz-live/campaigns.yml).
type Campaign struct {
	Name           string `yaml:"name"`
	Abbr           string `yaml:"abbr"`
	ALPN           string `yaml:"alpn"`
	ServerTestcase string `yaml:"server_testcase"`
	Description    string `yaml:"description"`
}

// Campaigns is the campaigns file: the campaigns and the oracles' bounds.
type Campaigns struct {
	Campaigns         []*Campaign `yaml:"campaigns"`
	LivenessFileBytes int         `yaml:"liveness_file_bytes"`
	MemoryGrowthMiB   float64     `yaml:"memory_growth_limit_mib"`
	IdleCPULimit      float64     `yaml:"idle_cpu_limit"`
}

// LoadCampaigns reads and checks the campaigns file.
func LoadCampaigns(path string) (*Campaigns, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc Campaigns
	bad := func(field, format string, a ...any) error {
		return &quicinterop.CaseError{File: path, Field: field, Msg: fmt.Sprintf(format, a...)}
	}
	if err := quicinterop.DecodeStrict(path, data, "campaigns", &doc); err != nil {
		return nil, err
	}
	if len(doc.Campaigns) == 0 {
		return nil, bad("campaigns", "no campaigns")
	}
	names := map[string]bool{}
	for i, c := range doc.Campaigns {
		f := func(n string) string { return fmt.Sprintf("campaigns[%d].%s", i, n) }
		switch {
		case c.Name == "" || names[c.Name]:
			return nil, bad(f("name"), "%q is missing or appears twice", c.Name)
		case c.ALPN != "h3" && c.ALPN != "hq-interop":
			return nil, bad(f("alpn"), "%q: the fuzzing client speaks h3 or hq-interop", c.ALPN)
		case c.ServerTestcase == "":
			return nil, bad(f("server_testcase"), "missing: the TESTCASE the server runs under")
		case c.Abbr == "":
			return nil, bad(f("abbr"), "missing")
		}
		names[c.Name] = true
	}
	switch {
	case doc.LivenessFileBytes < 1 || doc.LivenessFileBytes > 1<<20:
		return nil, bad("liveness_file_bytes", "%d: want 1..1048576", doc.LivenessFileBytes)
	case doc.MemoryGrowthMiB <= 0:
		return nil, bad("memory_growth_limit_mib", "%g: want a positive bound", doc.MemoryGrowthMiB)
	case doc.IdleCPULimit <= 0:
		return nil, bad("idle_cpu_limit", "%g: want a positive bound (cores)", doc.IdleCPULimit)
	}
	return &doc, nil
}
