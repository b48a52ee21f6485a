package report

import (
	"path/filepath"

	"github.com/wirelab/wirelab/internal/report/fuzzcov"
)

// extraSections are the fuzzing and coverage sections (internal/report/fuzzcov), each when
// out/ holds what its make target writes. A section that cannot be read says why in its place:
// the rest of the report stands.
func extraSections(o Options) []extraSection {
	var out []extraSection
	for _, s := range []struct {
		id, dir string
		make    func(outDir, relOut string) (fuzzcov.Section, error)
	}{
		{"fuzz", "fuzz", fuzzcov.Fuzz},
		{"coverage", "coverage", fuzzcov.Coverage},
	} {
		if !isDir(filepath.Join(o.Out, s.dir)) {
			continue
		}
		sec, err := s.make(o.Out, "../")
		x := extraSection{ID: s.id, Title: sec.Title, Body: sec.Body, Warnings: sec.Warnings}
		if err != nil {
			x.Warnings = append(x.Warnings, err.Error())
		}
		if x.Title == "" {
			x.Title = s.id
		}
		out = append(out, x)
	}
	return out
}
