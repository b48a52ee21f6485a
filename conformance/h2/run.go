package h2

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"strings"
	"time"
)

// Target is the server under test and how to reach it.
type Target struct {
	Addr      string      // host:port
	TLS       *tls.Config // ServerName, roots or InsecureSkipVerify; NextProtos is set to h2
	KeyLog    io.Writer   // SSLKEYLOGFILE-format key log, or nil
	TimeScale float64     // multiplies every case's timeout; 0 means 1
}

// caseFunc checks one requirement; it dials through cl so its frames land in the verdict.
type caseFunc func(ctx context.Context, cl *client) outcome

// Run executes the cases one after the other, each on its own connection(s) and bounded by its
// scaled timeout, and returns one verdict per case in order.
func Run(ctx context.Context, t *Target, cases []Case) []Verdict {
	out := make([]Verdict, 0, len(cases))
	for _, c := range cases {
		out = append(out, runOne(ctx, t, c))
	}
	return out
}

func runOne(parent context.Context, t *Target, c Case) Verdict {
	scale := t.TimeScale
	if scale <= 0 {
		scale = 1
	}
	ctx, cancel := context.WithTimeout(parent, time.Duration(float64(c.Timeout)*scale))
	defer cancel()
	cl := &client{target: t}
	start := time.Now()
	o := runGuarded(ctx, c, cl)
	cl.closeAll()
	return Verdict{
		Case:        c.Name,
		Requirement: c.Requirement,
		Result:      o.result,
		Skip:        o.skip,
		Reason:      oneLine(o.reason),
		Frames:      cl.frames(),
		ElapsedMS:   time.Since(start).Milliseconds(),
	}
}

// runGuarded turns a case's panic into a failed verdict, so one broken case cannot take the
// report of the others with it.
func runGuarded(ctx context.Context, c Case, cl *client) (o outcome) {
	defer func() {
		if r := recover(); r != nil {
			o = fail("internal error in the case: %v", r)
		}
	}()
	return c.run(ctx, cl)
}

// client hands a case its connections and keeps their frame logs.
type client struct {
	target *Target
	conns  []*conn
}

func (cl *client) dial(ctx context.Context, o dialOpts) (*conn, error) {
	c, err := dial(ctx, cl.target, o)
	if c != nil {
		cl.conns = append(cl.conns, c)
	}
	return c, err
}

func (cl *client) closeAll() {
	for _, c := range cl.conns {
		c.close()
	}
}

func (cl *client) frames() []string {
	var out []string
	for i, c := range cl.conns {
		if len(cl.conns) > 1 {
			out = append(out, fmt.Sprintf("-- connection %d", i+1))
		}
		out = append(out, c.log.lines()...)
	}
	return out
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
