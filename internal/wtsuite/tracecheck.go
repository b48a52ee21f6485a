package wtsuite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wirelab/wirelab/internal/quictrace"
	"github.com/wirelab/wirelab/internal/tshark"
	"github.com/wirelab/wirelab/internal/wtcheck"
)

// CheckTrace runs the case's trace checks over the sealed server-side trace, decrypted with the
// endpoints' keylogs (and leaves the pcapng with the secrets in it beside it): "" when every
// check holds, else one line naming the first that failed.
func CheckTrace(ctx context.Context, tool *tshark.Tool, cell string, c *Case, in Inputs, checks []string) (string, error) {
	if len(checks) == 0 {
		return "", nil
	}
	trace, err := quictrace.LoadCell(ctx, tool, cell)
	if errors.Is(err, quictrace.ErrNoKeylog) {
		return fmt.Sprintf("%s: %v", checks[0], err), nil
	}
	if err != nil {
		return "", err
	}
	ev, err := evidence(cell, c, in, trace)
	if err != nil {
		return "", err
	}
	// Every check runs, and each one's line goes to ChecksFile: what a pass verified is worth
	// reading too (the draft each side spoke, the streams and datagrams counted).
	var lines []string
	why := ""
	for _, name := range checks {
		chk, ok := wtcheck.Lookup(name)
		if !ok {
			return "", fmt.Errorf("unknown trace check %q", name)
		}
		r := chk.Run(ev)
		lines = append(lines, fmt.Sprintf("%s: %s: %s (%s)", r.Check, r.Verdict, r.Reason, chk.Requirement))
		if !r.OK() && why == "" {
			why = r.Check + ": " + r.Reason
		}
	}
	if err := os.WriteFile(filepath.Join(cell, ChecksFile), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		return "", err
	}
	return why, nil
}

// ChecksFile is where a cell keeps each trace check's verdict and reason.
const ChecksFile = "checks.txt"

// evidence is what the checks read: the trace, the case's transport and files, the protocols
// each side was given and what each wrote as negotiated.
func evidence(cell string, c *Case, in Inputs, t *quictrace.Trace) (*wtcheck.Evidence, error) {
	ev := &wtcheck.Evidence{Trace: t, Endpoint: in.Endpoint, Stream: c.Stream, Requester: c.Requester(),
		ClientProtocols: in.ClientProtocols, ServerProtocols: in.ServerProtocols, Files: map[string][]byte{}}
	for _, f := range in.Files {
		b, err := os.ReadFile(filepath.Join(c.SourceDir(cell), in.Endpoint, f))
		if err != nil {
			return nil, err
		}
		ev.Files[f] = b
	}
	read := func(dir string) *string {
		b, err := os.ReadFile(filepath.Join(cell, dir, "negotiated_protocol.txt"))
		if err != nil {
			return nil
		}
		s := string(b)
		return &s
	}
	ev.ClientNegotiated, ev.ServerNegotiated = read(clientDownloads), read(serverDownloads)
	return ev, nil
}
