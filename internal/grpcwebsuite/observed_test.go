package grpcwebsuite

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/lifecycle"
	"github.com/wirelab/wirelab/internal/matrix"
)

// An observed case's verdict comes from the file its server left in the cell's folder, and only
// from a complete one.
func TestJudgeObserved(t *testing.T) {
	c := &Case{Name: "client_cancel_reaches_server", Testcase: "client_cancel_reaches_server", Observed: true}
	call := func(name, end string, messages int) string {
		return `{"kind":"call","case":"client_cancel_reaches_server","call":"` + name + `","end":"` + end + `","messages":` + strconv.Itoa(messages) + "}\n"
	}
	stop := `{"kind":"stop","case":"client_cancel_reaches_server"}` + "\n"
	good := call("control", "eos", 2) + call("cut", "cancelled", 1) + call("abandon", "cancelled", 1)
	for _, tt := range []struct {
		name, file string
		want       string // "" passes
	}{
		{"cancelled", good + stop, ""},
		{"cut committed", call("control", "eos", 2) + call("cut", "eos", 1) + call("abandon", "cancelled", 1) + stop, "what the server saw: the client stream cut off after its first message: the server saw a clean end of stream"},
		{"server killed before its stop line", good, "no stop line"},
		{"no file", "", "no such file"},
	} {
		dir := t.TempDir()
		if tt.file != "" {
			if err := os.MkdirAll(filepath.Join(dir, "server"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, ObservedFile), []byte(tt.file), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		err := c.JudgeObserved(dir)
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
	if err := (&Case{Name: "empty_unary", Testcase: "empty_unary"}).JudgeObserved(t.TempDir()); err != nil {
		t.Errorf("a case that is not observed: %v", err)
	}
}

// The suite's verdict holds an observed case to what its server saw: the client passing is not
// enough when the server committed a cancelled call as a clean end.
func TestVerdictReadsWhatTheServerSaw(t *testing.T) {
	c := &Case{Name: "client_cancel_reaches_server", Testcase: "client_cancel_reaches_server", Kind: KindChain, Observed: true}
	m := testMatrix()
	m.casesByName = map[string]*Case{c.Name: c}
	call := func(name, end string, messages int) string {
		return `{"kind":"call","case":"client_cancel_reaches_server","call":"` + name + `","end":"` + end + `","messages":` + strconv.Itoa(messages) + "}\n"
	}
	for file, want := range map[string]string{
		call("control", "eos", 2) + call("cut", "cancelled", 1) + call("abandon", "cancelled", 1) + `{"kind":"stop","case":"client_cancel_reaches_server"}` + "\n": "succeeded",
		call("control", "eos", 2) + call("cut", "eos", 1) + call("abandon", "cancelled", 1) + `{"kind":"stop","case":"client_cancel_reaches_server"}` + "\n":       "failed",
	} {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "server"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, ObservedFile), []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
		v := m.Verdict(context.Background(), nil, matrix.Cell{Case: c.Name}, lifecycle.Evidence{Dir: dir, ClientExit: 0})
		if v.Result != want {
			t.Errorf("%s, want %s (%q)", v.Result, want, v.Reason)
		}
	}
}
