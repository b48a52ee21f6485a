// Package tsharktest gives tests outside internal/tshark the tshark image they need. Without it a
// test skips in a plain go test and fails in CI and under WIRELAB_INTEGRATION=1 (see prereq).
package tsharktest

import (
	"context"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/prereq"
	"github.com/wirelab/wirelab/internal/tshark"
)

// Need returns a tool for the tshark image, or ends the test through prereq.Missing.
func Need(t testing.TB) *tshark.Tool {
	t.Helper()
	r := &tshark.Tool{}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := r.Available(ctx); err != nil {
		prereq.Missing(t, "image "+tshark.Image+" ("+err.Error()+")",
			"ci/test.sh runs these tests in its traces stage, after the images stage built it; here: out/bin/wirelab images tshark")
	}
	return r
}
