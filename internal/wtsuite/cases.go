// Package wtsuite runs the WebTransport interop matrix (upstream's WebTransport cases): client x
// server x case through the sim, verdicts from the files each side saved and from the decrypted
// server-side trace (internal/wtcheck).
package wtsuite

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/quicinterop"
	"github.com/wirelab/wirelab/internal/wtcheck"
)

// Case is one test case of conformance/webtransport/cases.yml.
type Case struct {
	Name        string `yaml:"name"`
	Abbr        string `yaml:"abbr"`
	Requirement string `yaml:"requirement"`
	Description string `yaml:"description"`
	// Stream is the transport the files move on (unidirectional, bidirectional, datagram; none
	// for the handshake); Direction who sends them: receive (server to client, the client
	// requests) or send (client to server, the server requests).
	Stream    string   `yaml:"stream"`
	Direction string   `yaml:"direction"`
	Files     []string `yaml:"files"` // SIZE or COUNTxSIZE (B, KiB, MiB), in upstream's order
	// FileSeries: COUNTxFIRST+STEP, files of FIRST, FIRST+STEP, ... bytes (upstream's datagram
	// cases: 200x600+2).
	FileSeries     string   `yaml:"file_series"`
	Profile        string   `yaml:"profile"`
	Timeout        string   `yaml:"timeout"`
	Checks         []string `yaml:"checks"`
	TypicalSeconds float64  `yaml:"typical_seconds"`

	FileSizes []int64       `yaml:"-"`
	Limit     time.Duration `yaml:"-"`
}

// Requester is who sends the GETs: the client, but in the *-send cases the server.
func (c *Case) Requester() string {
	if c.Direction == "send" {
		return "server"
	}
	return "client"
}

// Testcase is the TESTCASE a role is given: the case's name for the side that acts (the client
// in handshake and *-receive, the server in *-send), "transfer" for the side that only answers
// (upstream's testname).
func (c *Case) Testcase(role string) string {
	if c.Stream == "" || role == c.Requester() {
		return c.Name
	}
	return "transfer"
}

// fileChecks are the checks the suite reads off the saved files, not the trace.
var fileChecks = map[string]bool{"files": true}

var (
	nameRE   = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	seriesRE = regexp.MustCompile(`^(\d+)x(\d+)\+(\d+)$`)
)

// LoadCases reads and validates the cases file; a problem is one line naming file and field.
func LoadCases(path string) ([]*Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseCases(path, data)
}

// ParseCases decodes and validates cases (path names them in errors).
func ParseCases(path string, data []byte) ([]*Case, error) {
	var doc struct {
		Cases []*Case `yaml:"cases"`
	}
	if err := quicinterop.DecodeStrict(path, data, "cases", &doc); err != nil {
		return nil, err
	}
	if len(doc.Cases) == 0 {
		return nil, &quicinterop.CaseError{File: path, Field: "cases", Msg: "no test cases"}
	}
	names, abbrs := map[string]bool{}, map[string]bool{}
	for i, c := range doc.Cases {
		bad := func(field, format string, a ...any) error {
			return &quicinterop.CaseError{File: path, Field: fmt.Sprintf("cases[%d].%s", i, field), Msg: fmt.Sprintf(format, a...)}
		}
		switch {
		case !nameRE.MatchString(c.Name):
			return nil, bad("name", "%q is not a test case name", c.Name)
		case names[c.Name]:
			return nil, bad("name", "%q appears twice", c.Name)
		case c.Abbr == "" || abbrs[c.Abbr]:
			return nil, bad("abbr", "%q is missing or appears twice", c.Abbr)
		case !slices.Contains([]string{"", "unidirectional", "bidirectional", "datagram"}, c.Stream):
			return nil, bad("stream", "%q: want unidirectional, bidirectional or datagram (none: the handshake)", c.Stream)
		case c.Stream == "" && c.Direction != "":
			return nil, bad("direction", "%q without a stream: the handshake moves no files", c.Direction)
		case c.Stream != "" && c.Direction != "receive" && c.Direction != "send":
			return nil, bad("direction", "%q: want receive (server to client) or send (client to server)", c.Direction)
		case len(c.Checks) == 0:
			return nil, bad("checks", "no checks: a case that cannot fail is not a test")
		case !(c.TypicalSeconds >= 0 && c.TypicalSeconds <= 86400):
			return nil, bad("typical_seconds", "%g: want 0..86400 seconds (0: unknown)", c.TypicalSeconds)
		}
		names[c.Name], abbrs[c.Abbr] = true, true
		if c.Profile == "" {
			c.Profile = "simple-p2p"
		}
		c.Limit = 60 * time.Second
		if c.Timeout != "" {
			d, err := time.ParseDuration(c.Timeout)
			if err != nil || d <= 0 {
				return nil, bad("timeout", "%q is not a positive duration", c.Timeout)
			}
			c.Limit = d
		}
		for j, f := range c.Files {
			sizes, err := quicinterop.ParseFileSizes(f)
			if err != nil {
				return nil, bad(fmt.Sprintf("files[%d]", j), "%v", err)
			}
			c.FileSizes = append(c.FileSizes, sizes...)
		}
		if c.FileSeries != "" {
			m := seriesRE.FindStringSubmatch(c.FileSeries)
			if m == nil {
				return nil, bad("file_series", "%q: want COUNTxFIRST+STEP (200x600+2)", c.FileSeries)
			}
			n, _ := strconv.Atoi(m[1])
			first, _ := strconv.ParseInt(m[2], 10, 64)
			step, _ := strconv.ParseInt(m[3], 10, 64)
			if n < 1 || n > 10000 || first < 1 || first+step*int64(n) > 1<<20 {
				return nil, bad("file_series", "%q: 1..10000 files of 1 B..1 MiB", c.FileSeries)
			}
			for k := range n {
				c.FileSizes = append(c.FileSizes, first+step*int64(k))
			}
		}
		if (c.Stream == "") != (len(c.FileSizes) == 0) {
			return nil, bad("files", "a transfer case moves files, the handshake none (%d files, stream %q)", len(c.FileSizes), c.Stream)
		}
		for j, chk := range c.Checks {
			if _, ok := wtcheck.Lookup(chk); !ok && !fileChecks[chk] {
				return nil, bad(fmt.Sprintf("checks[%d]", j), "unknown check %q (known: files, %s)", chk, strings.Join(wtcheck.Names(), ", "))
			}
		}
	}
	return doc.Cases, nil
}
