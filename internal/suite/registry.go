package suite

import "github.com/wirelab/wirelab/internal/manifest"

// Registry is a list of suites: the command line's (internal/suites.All), or a test's own.
type Registry func() []Suite

// Find is the registered suite named name, or nil.
func (r Registry) Find(name string) Suite {
	for _, s := range r() {
		if s.Info().Name == name {
			return s
		}
	}
	return nil
}

// Names are the registered suites' names, in order.
func (r Registry) Names() []string {
	var out []string
	for _, s := range r() {
		out = append(out, s.Info().Name)
	}
	return out
}

// Schema is what the registered suites accept in manifests: each suite's roles and ALPNs.
func (r Registry) Schema() manifest.Schema {
	out := manifest.Schema{}
	for _, s := range r() {
		i := s.Info()
		out[i.Name] = manifest.SuiteSchema{Roles: i.Roles, ALPN: i.ALPN}
	}
	return out
}
