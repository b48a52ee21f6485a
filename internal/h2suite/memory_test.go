package h2suite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/jsonfile"
	"github.com/wirelab/wirelab/internal/lifecycle"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/topology"
)

// A probe's memory bound is judged only from enough samples of the server's memory: a probe
// that passed with too few (docker stats failing) fails, naming the count and the error.
func TestProbeMemoryBoundNeedsSamples(t *testing.T) {
	sec := &Section{Name: "rapid-reset", Client: ClientH2probe}
	m := &Matrix{bySection: map[string]*Section{sec.Name: sec}}
	verdict := func(mem topology.MemorySamples) matrix.Result {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "client"), 0o755); err != nil {
			t.Fatal(err)
		}
		report := `{"probes":[{"probe":"rapid-reset","result":"passed","server_action":"goaway","cut":true,"latency_ok":true}]}`
		if err := os.WriteFile(filepath.Join(dir, "client", "report.json"), []byte(report), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := jsonfile.Write(filepath.Join(dir, memoryFile), mem); err != nil {
			t.Fatal(err)
		}
		return m.Verdict(context.Background(), nil, matrix.Cell{Case: sec.Name}, lifecycle.Evidence{Dir: dir})
	}
	if v := verdict(topology.MemorySamples{First: 10 << 20, Peak: 12 << 20, Samples: 20}); v.Result != matrix.Succeeded {
		t.Errorf("20 samples, 2 MiB growth: %s %q", v.Result, v.Reason)
	}
	v := verdict(topology.MemorySamples{First: 10 << 20, Peak: 10 << 20, Samples: 1, Errors: 19, LastError: "docker stats: no such container"})
	if v.Result != matrix.Failed || !strings.Contains(v.Reason, "1 samples") || !strings.Contains(v.Reason, "no such container") {
		t.Errorf("one sample: %s %q", v.Result, v.Reason)
	}
	if v := verdict(topology.MemorySamples{First: 10 << 20, Peak: 11 << 20, Samples: 2}); v.Result != matrix.Succeeded {
		t.Errorf("the two ends (before and after the client), 1 MiB growth: %s %q", v.Result, v.Reason)
	}
	if v := verdict(topology.MemorySamples{First: 10 << 20, Peak: 400 << 20, Samples: 20}); v.Result != matrix.Failed {
		t.Errorf("390 MiB growth: %s %q", v.Result, v.Reason)
	}
}
