package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/wirelab/wirelab/internal/schedlag"
)

// sampleLag is `sim -lag`: make sim-check runs it in a container of its own next to a cell's
// probes, so it is scheduled as the cell's containers are, and stops it with SIGTERM when the
// probes are done. "sampling" on stdout says the measurement runs; the summary follows it.
func sampleLag() error {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	s := schedlag.Start()
	fmt.Println("sampling")
	<-sigs
	return json.NewEncoder(os.Stdout).Encode(s.Stop())
}
