package h2

import (
	"fmt"
	"strings"
	"testing"
)

func TestCasesMatchFunctions(t *testing.T) {
	cases, err := Cases()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range cases {
		seen[c.Name] = true
		if !strings.HasPrefix(c.Requirement, "RFC ") || c.Description == "" || c.Timeout > 30e9 {
			t.Errorf("%s: requirement %q, description %q, timeout %v", c.Name, c.Requirement, c.Description, c.Timeout)
		}
	}
	for name := range caseFuncs {
		if !seen[name] {
			t.Errorf("function for %s is not listed in cases.yml", name)
		}
	}
}

func TestParseCasesErrors(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"- name: x\n  requirement: RFC 1\n  timeout: 1s\n", "x: no function"},
		{"- name: 6.1-padding-flow-control\n  requirement: RFC 1\n  timeout: soon\n", "timeout \"soon\""},
		{"- requirement: RFC 1\n", "name missing"},
		{"- name: 6.1-padding-flow-control\n  timeout: 1s\n", "requirement missing"},
	} {
		if _, err := parseCases([]byte(tc.yaml)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parseCases(%q) = %v, want error containing %q", tc.yaml, err, tc.want)
		}
	}
}

func TestSelect(t *testing.T) {
	cases, _ := Cases()
	for _, tc := range []struct {
		list string
		n    int
		err  string
	}{
		{"all", len(cases), ""},
		{"6.9", 8, ""},
		{"6.9.1", 4, ""},
		{"6.1-padding-flow-control, rfc9218", 2, ""},
		{"6.9.1,6.9.1-enforces-receive-window", 4, ""},
		{"6.9.4", 0, `unknown case "6.9.4"`},
		{" , ", 0, "empty case list"},
	} {
		got, err := Select(cases, tc.list)
		if fmt.Sprint(err) != fmt.Sprint(errOrNil(tc.err)) || len(got) != tc.n {
			t.Errorf("Select(%q) = %d cases, %v; want %d, %q", tc.list, len(got), err, tc.n, tc.err)
		}
	}
}

func errOrNil(s string) error {
	if s == "" {
		return nil
	}
	return fmt.Errorf("%s", s)
}

func TestFrameLogStaysShort(t *testing.T) {
	var l frameLog
	l.add("> HEADERS s=1", "", 0)
	for i := 0; i < 5000; i++ {
		l.add("< DATA s=1 len=16", "< DATA s=1", 16)
		l.add("> WINDOW_UPDATE s=1 +16", "> WINDOW_UPDATE s=1", 16)
		l.add("> WINDOW_UPDATE s=0 +16", "> WINDOW_UPDATE s=0", 16)
	}
	for i := 0; i < 500; i++ {
		l.add(fmt.Sprintf("< RST_STREAM s=%d", i), "", 0)
	}
	lines := l.lines()
	if len(lines) > logHead+logTail+1 {
		t.Fatalf("%d lines, want at most %d", len(lines), logHead+logTail+1)
	}
	if lines[1] != "< DATA s=1 x5000 (80000 bytes)" || !strings.Contains(strings.Join(lines, "\n"), "entries omitted") {
		t.Errorf("log:\n%s", strings.Join(lines, "\n"))
	}
	if last := lines[len(lines)-1]; last != "< RST_STREAM s=499" {
		t.Errorf("last line %q", last)
	}
}
