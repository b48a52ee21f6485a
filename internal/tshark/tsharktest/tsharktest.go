// Package tsharktest gives tests outside internal/tshark the tshark image they need, or skips
// them where it is missing (a plain go test), never under WIRELAB_INTEGRATION=1.
package tsharktest

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/tshark"
)

// Need returns a tool for the tshark image; without the image the test is skipped, or fails
// when WIRELAB_INTEGRATION=1 (make test must not skip it).
func Need(t testing.TB) *tshark.Tool {
	t.Helper()
	r := &tshark.Tool{}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := r.Available(ctx); err != nil {
		if os.Getenv("WIRELAB_INTEGRATION") == "1" {
			t.Fatalf("WIRELAB_INTEGRATION=1 but the tshark image is not usable: %v", err)
		}
		t.Skipf("skipping: image %s not available (out/bin/wirelab images tshark): %v", tshark.Image, err)
	}
	return r
}
