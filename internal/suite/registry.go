package suite

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

// Roles are the roles an image can play in each registered suite (manifests' roles.<suite>).
func (r Registry) Roles() map[string][]string {
	out := map[string][]string{}
	for _, s := range r() {
		out[s.Info().Name] = s.Info().Roles
	}
	return out
}
