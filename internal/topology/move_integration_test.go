package topology

import (
	"context"
	"testing"
)

// Another process's network appears on a cell's subnets between allocation and compose up (two
// runs at once): Up must move the cell to other subnets instead of failing it.
func TestIntegrationUpMovesOffSubnetsTakenMeanwhile(t *testing.T) {
	ctx, d, compose, root, r := integrationRun(t, "the sim and endpoint images")

	var alloc Allocator
	key := r.ID + "/moved"
	first, release, err := alloc.Allocate(ctx, d, key)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	// The "other process": a labelled network on the allocated client subnet.
	squatter := "wirelab-" + r.ID + "-squatter"
	if _, err := d.Run(ctx, append(append([]string{"network", "create"}, r.Labels()...),
		"--subnet", first.Client4+".0/24", squatter)...); err != nil {
		t.Fatal(err)
	}
	cell := NewCell(r, compose, root, "moved", first, map[string]string{
		"CLIENT_IMAGE": "wirelab/endpoint:latest", "SERVER_IMAGE": "wirelab/endpoint:latest",
		"TESTCASE": "wirelab-unknown", "SIM_PROFILE": "ideal", "SIM_CAPTURE": "0",
	})
	if err := cell.Up(ctx); err == nil {
		cell.Stop(ctx)
		t.Fatal("without MoveWith, up on a taken subnet should fail (else this test proves nothing)")
	}
	cell.MoveWith(&alloc, d, key)
	if err := cell.Up(ctx); err != nil {
		t.Fatalf("up after the move: %v", err)
	}
	defer cell.Stop(context.Background())
	if cell.Subnets == first {
		t.Fatalf("cell still on %+v", first)
	}
}
