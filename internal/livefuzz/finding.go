package livefuzz

import (
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/wirelab/wirelab/internal/jsonfile"
	"github.com/wirelab/wirelab/internal/lifecycle"
	"github.com/wirelab/wirelab/internal/matrix"
)

// Finding is one finding's folder (finding.json beside inputs.json, the inputs that replay it
// in order): written by the fuzzing client (rfc, liveness) or by the verdict (crash, memory, cpu).
type Finding struct {
	Dir       string          `json:"-"`
	Oracle    string          `json:"oracle"`
	Signature string          `json:"signature"`
	Target    string          `json:"target"`
	Campaign  string          `json:"campaign,omitempty"`
	ALPN      string          `json:"alpn"`
	Rule      string          `json:"rule,omitempty"`
	Section   string          `json:"section,omitempty"`
	Must      string          `json:"must,omitempty"`
	Expected  string          `json:"expected,omitempty"`
	Observed  string          `json:"observed"`
	Close     json.RawMessage `json:"close,omitempty"`
	Frame     string          `json:"frame,omitempty"`
	Hits      int             `json:"hits"`
}

// ReadFinding reads a finding's folder; the campaign is named by its ALPN when the client
// wrote it (it knows the protocol, not the campaign's name).
func ReadFinding(dir string) (*Finding, error) {
	var f Finding
	if err := jsonfile.Read(filepath.Join(dir, "finding.json"), &f); err != nil {
		return nil, err
	}
	f.Dir = dir
	if f.Target == "" {
		return nil, fmt.Errorf("%s: target: missing", filepath.Join(dir, "finding.json"))
	}
	if f.Campaign == "" {
		f.Campaign = f.ALPN
	}
	var inputs []json.RawMessage
	if err := jsonfile.Read(filepath.Join(dir, "inputs.json"), &inputs); err != nil {
		return nil, err
	}
	if len(inputs) == 0 {
		return nil, fmt.Errorf("%s: no inputs", filepath.Join(dir, "inputs.json"))
	}
	return &f, nil
}

// Line is the finding in one line: oracle, what happened, the rule when there is one.
func (f *Finding) Line() string {
	switch f.Oracle {
	case "rfc":
		return fmt.Sprintf("rfc %s (%s): sent %s, want %s, got %s", f.Rule, f.Section, f.Frame, f.Expected, f.Observed)
	default:
		return fmt.Sprintf("%s: %s", f.Oracle, f.Observed)
	}
}

// findings reads every finding folder of a campaign, in name order.
func findings(cell string) []*Finding {
	root := filepath.Join(cell, fuzzOut, "findings")
	es, _ := os.ReadDir(root)
	var out []*Finding
	for _, e := range es {
		if f, err := ReadFinding(filepath.Join(root, e.Name())); err == nil {
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Dir < out[j].Dir })
	return out
}

// recentInputs are the inputs the client sent last, oldest first (its recent/ ring): what a
// crash or a hang is replayed from.
func recentInputs(cell string) ([]json.RawMessage, error) {
	dir := filepath.Join(cell, fuzzOut, "recent")
	es, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	type rec struct {
		Seq   int             `json:"seq"`
		Input json.RawMessage `json:"input"`
	}
	var rs []rec
	for _, e := range es {
		var r rec
		if filepath.Ext(e.Name()) == ".json" && jsonfile.Read(filepath.Join(dir, e.Name()), &r) == nil {
			rs = append(rs, r)
		}
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].Seq < rs[j].Seq })
	out := make([]json.RawMessage, len(rs))
	for i, r := range rs {
		out[i] = r.Input
	}
	return out, nil
}

// writeFinding makes a finding folder of the verdict's own (crash, memory, cpu) beside the
// client's; the signature names it, so the same finding judged again is the same folder.
func writeFinding(cell string, f *Finding, inputs []json.RawMessage) (*Finding, error) {
	h := sha1.Sum([]byte(f.Oracle + "\x00" + f.Signature))
	f.Dir = filepath.Join(cell, fuzzOut, "findings", f.Oracle+"-"+hex.EncodeToString(h[:])[:10])
	if err := os.MkdirAll(f.Dir, 0o755); err != nil {
		return nil, err
	}
	if f.Hits == 0 {
		f.Hits = 1
	}
	if err := jsonfile.Write(filepath.Join(f.Dir, "inputs.json"), inputs); err != nil {
		return nil, err
	}
	return f, jsonfile.Write(filepath.Join(f.Dir, "finding.json"), f)
}

var (
	hexRE   = regexp.MustCompile(`0x[0-9a-fA-F]{6,}|\b[0-9a-f]{12,}\b`)
	digitRE = regexp.MustCompile(`\d+`)
)

// crashSignature is a dying server's last words without what changes from run to run
// (addresses, ids, counts): two deaths with the same signature are one finding.
func crashSignature(code int, words string) string {
	w := hexRE.ReplaceAllString(words, "X")
	w = digitRE.ReplaceAllString(w, "N")
	return fmt.Sprintf("exit %d: %s", code, strings.TrimSpace(w))
}

// crashFinding is the crash oracle's finding: named by the ASan report when the target wrote
// one (ASan stopped it), else by the dying server's last words.
func crashFinding(cell matrix.Cell, c *Campaign, exits []lifecycle.PeerExit, asan *asanReport, inputs int) *Finding {
	f := &Finding{Oracle: "crash", Target: cell.Server, Campaign: c.Name, ALPN: c.ALPN}
	exit := "the server kept running"
	if len(exits) > 0 {
		pe := exits[0]
		f.Signature = crashSignature(pe.Code, pe.Words)
		f.Observed = fmt.Sprintf("the server exited %d after %d inputs: %s", pe.Code, inputs, pe.Words)
		exit = fmt.Sprintf("the server exited %d", pe.Code)
	}
	if asan != nil {
		f.Signature = asan.Signature()
		f.Observed = fmt.Sprintf("%s after %d inputs; %s", asan.Line(), inputs, exit)
	}
	return f
}
