package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/wirelab/wirelab/internal/docker"
	"github.com/wirelab/wirelab/internal/run"
)

// smokeResult is out/smoke/<run-id>/result.json.
type smokeResult struct {
	RunID         string  `json:"run_id"`
	Image         string  `json:"image"`
	BytesSent     int64   `json:"bytes_sent"`
	BytesReceived int64   `json:"bytes_received"`
	Mbps          float64 `json:"mbit_per_s"`
	Result        string  `json:"result"` // succeeded | failed
	Reason        string  `json:"reason,omitempty"`
}

func runSmoke(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "smoke", "")
	opts := fs.runFlags("smoke")
	image := fs.String("image", "wirelab/endpoint:latest", "endpoint `image` for both containers")
	size := fs.Int64("bytes", 4<<20, "bytes the client sends to the server over TCP")
	hold := fs.Duration("hold", 0, "keep the containers up this long after the check (to try Ctrl-C cleanup)")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	if err := checkRunFlags(opts, time.Now()); err != nil {
		return err
	}
	if *size <= 0 || *hold < 0 {
		return badInputf("--bytes must be > 0 and --hold >= 0")
	}
	file := filepath.Join(e.root, "compose", "smoke.yml")
	if _, err := os.Stat(file); err != nil {
		return badInputf("%v", err)
	}
	r, ctx, compose, err := e.startRun(ctx, *opts, true)
	if err != nil {
		return err
	}
	res := smokeResult{RunID: r.ID, Image: *image, Result: "failed"}
	checkErr := smokeCheck(ctx, r, compose, file, *image, *size, &res)
	if checkErr == nil {
		res.Result = "succeeded"
		fmt.Fprintf(e.stdout, "smoke: client -> server %d bytes over TCP at %.0f Mbit/s (run %s)\n", res.BytesReceived, res.Mbps, r.ID)
		if *hold > 0 {
			fmt.Fprintf(e.stdout, "smoke: holding %s; interrupt to test cleanup\n", *hold)
			select {
			case <-ctx.Done():
			case <-time.After(*hold):
			}
		}
	} else {
		res.Reason = checkErr.Error()
	}
	if r.Interrupted() != nil {
		checkErr, res.Reason = errInterrupted, "interrupted"
	}
	if err := writeJSON(filepath.Join(r.Dir, "result.json"), res); err != nil && checkErr == nil {
		checkErr = err
	}
	if err := r.Finish(); err != nil {
		return err
	}
	if checkErr != nil {
		return checkErr
	}
	// The run must leave nothing behind; checked here so every smoke run proves cleanup.
	if left, names, err := e.docker.Leftovers(context.Background(), docker.RunSelector(r.ID)); err != nil || !left.Empty() {
		return failed{fmt.Sprintf("cleanup left %s: %v %v", left, names, err)}
	}
	fmt.Fprintf(e.stdout, "smoke: cleanup left nothing labelled %s\n", docker.RunSelector(r.ID))
	return nil
}

// smokeCheck starts the topology and has the client push size bytes to the server with iperf3.
func smokeCheck(ctx context.Context, r *run.Run, compose *docker.Compose, file, image string, size int64, res *smokeResult) error {
	env := append(r.Env(), "WIRELAB_ENDPOINT_IMAGE="+image)
	cmd := func(args ...string) ([]byte, error) {
		out, err := compose.Cmd(ctx, file, env, args...).CombinedOutput()
		if err != nil && ctx.Err() == nil {
			return out, fmt.Errorf("%s: %v: %s", args[0], err, lastLines(out, 2))
		}
		return out, ctx.Err()
	}
	if _, err := cmd("up", "-d", "--quiet-pull"); err != nil {
		return err
	}
	n := strconv.FormatInt(size, 10)
	out, err := cmd("exec", "-T", "client", "/wait-for-it.sh", "server:5201", "-q", "-s", "-t", "30", "--", "iperf3", "-c", "server", "-n", n, "--json")
	if err != nil {
		return err
	}
	var ip struct {
		End struct {
			SumSent     struct{ Bytes int64 } `json:"sum_sent"`
			SumReceived struct {
				Bytes         int64
				BitsPerSecond float64 `json:"bits_per_second"`
			} `json:"sum_received"`
		} `json:"end"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(out, &ip); err != nil {
		return fmt.Errorf("iperf3 output is not JSON: %s", lastLines(out, 2))
	}
	res.BytesSent, res.BytesReceived = ip.End.SumSent.Bytes, ip.End.SumReceived.Bytes
	res.Mbps = ip.End.SumReceived.BitsPerSecond / 1e6
	switch {
	case ip.Error != "":
		return failed{"iperf3: " + ip.Error}
	case res.BytesReceived < size:
		return failed{fmt.Sprintf("server received %d of %d bytes", res.BytesReceived, size)}
	}
	return nil
}
