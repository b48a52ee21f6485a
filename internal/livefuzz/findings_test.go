package livefuzz

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wirelab/wirelab/internal/manifest"
)

// Every finding kept in conformance/fuzz-live/findings replays with `make fuzz-repro FINDING=`
// from a clean clone: it parses, its target is a fuzz-live server image of this repository,
// its campaign is one of the campaigns file's, and an RFC finding names a rule of rules.yml.
func TestCommittedFindings(t *testing.T) {
	root := "../../conformance/fuzz-live/findings"
	es, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := manifest.LoadDir("../../images")
	if err != nil {
		t.Fatal(err)
	}
	servers := map[string]bool{}
	for _, m := range ms {
		if m.Plays(Name, "server") {
			servers[m.Name] = true
		}
	}
	rules, err := LoadRules("../../conformance/fuzz-live/rules.yml")
	if err != nil {
		t.Fatal(err)
	}
	ruleIDs := map[string]bool{}
	for _, r := range rules {
		ruleIDs[r.ID] = true
	}
	m := testMatrix(t)
	n := 0
	for _, e := range es {
		if !e.IsDir() {
			continue
		}
		n++
		f, err := ReadFinding(filepath.Join(root, e.Name()))
		switch {
		case err != nil:
			t.Errorf("%s: %v", e.Name(), err)
		case !servers[f.Target]:
			t.Errorf("%s: target %q is no fuzz-live server image", e.Name(), f.Target)
		case m.byCampaign[f.Campaign] == nil:
			t.Errorf("%s: campaign %q is not in campaigns.yml", e.Name(), f.Campaign)
		case f.Oracle == "rfc" && !ruleIDs[f.Rule]:
			t.Errorf("%s: rule %q is not in rules.yml", e.Name(), f.Rule)
		}
	}
	if n == 0 {
		t.Error("no findings kept: the findings page has nothing to replay")
	}
}
