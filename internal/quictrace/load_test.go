package quictrace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/docker"
	"github.com/wirelab/wirelab/internal/gzfixture"
	"github.com/wirelab/wirelab/internal/tshark"
)

// fakeTshark is a tshark tool whose docker prints what script prints (the real tshark runs in
// TestInjectSecrets and the fixture tests where its image is built).
func fakeTshark(t *testing.T, script string) *tshark.Tool {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "docker")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	return &tshark.Tool{Docker: &docker.CLI{Bin: bin}}
}

// Load parses tshark's output as it streams, says when it was filtered, and reports a failing
// tshark (with the host's path) or output it cannot parse.
func TestLoadStreamsTsharkOutput(t *testing.T) {
	dir := t.TempDir()
	sample := filepath.Join(dir, "sample.json")
	b := gzfixture.Read(t, filepath.Join(testdata, "handshake.tshark.json.gz"))
	if err := os.WriteFile(sample, b, 0o644); err != nil {
		t.Fatal(err)
	}
	pcap := filepath.Join(dir, "a.pcap")
	if err := os.WriteFile(pcap, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	tr, err := Load(ctx, fakeTshark(t, "cat "+sample), pcap, "", LongHeaderFilter)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Datagrams) < 6 || !tr.LongHeadersOnly {
		t.Errorf("%d datagrams, LongHeadersOnly %v", len(tr.Datagrams), tr.LongHeadersOnly)
	}

	damaged := `echo 'tshark: The file "/t0/a.pcap" appears to be damaged or corrupt.' >&2
echo '(pcap: File has 4000000-byte packet, bigger than maximum of 262144)' >&2
exit 2`
	_, err = Load(ctx, fakeTshark(t, damaged), pcap, "", "")
	if err == nil || !strings.Contains(err.Error(), `"`+pcap+`" appears to be damaged`) || !strings.Contains(err.Error(), "bigger than maximum") {
		t.Errorf("damaged capture: %v", err)
	}

	// Half a JSON document and more output after the parser gave up: the error names the trace.
	_, err = Load(ctx, fakeTshark(t, "head -c 300 "+sample+"; yes | head -c 1000000"), pcap, "", "")
	if err == nil || !strings.HasPrefix(err.Error(), pcap+": ") {
		t.Errorf("unparsable output: %v", err)
	}
}
