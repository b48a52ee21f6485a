// Package suites is the registry: every matrix suite wirelab runs, each registered once, here.
// The command line, make, merge, baseline and the report find the suites through it.
package suites

import (
	"github.com/wirelab/wirelab/internal/benchsuite"
	"github.com/wirelab/wirelab/internal/grpcwebsuite"
	"github.com/wirelab/wirelab/internal/h2suite"
	"github.com/wirelab/wirelab/internal/livefuzz"
	"github.com/wirelab/wirelab/internal/quicinterop"
	"github.com/wirelab/wirelab/internal/suite"
	"github.com/wirelab/wirelab/internal/wtsuite"
)

// All returns a fresh instance of every registered suite, in the order help and the report
// show them.
func All() []suite.Suite {
	return []suite.Suite{&quicinterop.Suite{}, &h2suite.Suite{}, &grpcwebsuite.Suite{}, &benchsuite.Suite{}, &wtsuite.Suite{}, &livefuzz.Suite{}}
}
