// Command wirelab runs the lab: image registry and builds, suites, fuzzing, coverage, cleanup.
package main

import (
	"context"
	"os"

	"github.com/wirelab/wirelab/internal/cli"
)

func main() {
	os.Exit(cli.Main(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}
