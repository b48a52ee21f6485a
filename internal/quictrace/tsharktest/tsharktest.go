// Package tsharktest gives tests outside internal/quictrace the tshark image they need, or
// skips them where it is missing (a plain go test), never under WIRELAB_INTEGRATION=1.
package tsharktest

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/quictrace"
)

// Need returns a runner for the tshark image; without the image the test is skipped, or fails
// when WIRELAB_INTEGRATION=1 (make test must not skip it).
func Need(t testing.TB) *quictrace.Runner {
	t.Helper()
	r := &quictrace.Runner{}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := r.Available(ctx); err != nil {
		if os.Getenv("WIRELAB_INTEGRATION") == "1" {
			t.Fatalf("WIRELAB_INTEGRATION=1 but the tshark image is not usable: %v", err)
		}
		t.Skipf("skipping: image %s not available (out/bin/wirelab images tshark): %v", quictrace.Image, err)
	}
	return r
}
