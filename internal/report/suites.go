package report

import (
	"github.com/wirelab/wirelab/internal/reportview"
	"github.com/wirelab/wirelab/internal/suite"
)

// shown is a registered suite as the report shows it: its registration and its view (the
// generic one when the suite has none of its own).
type shown struct {
	suite suite.Suite
	name  string
	view  reportview.View
}

// shownSuites are the registry's suites, in its order.
func shownSuites(reg suite.Registry) []*shown {
	var out []*shown
	for _, s := range reg() {
		var v reportview.View = reportview.Plain{}
		if vr, ok := s.(reportview.Viewer); ok {
			v = vr.ReportView()
		}
		out = append(out, &shown{suite: s, name: s.Info().Name, view: v})
	}
	return out
}

// title heads the suite's section.
func (s *shown) title() string {
	if t := s.view.Title(); t != "" {
		return t
	}
	return s.name
}
