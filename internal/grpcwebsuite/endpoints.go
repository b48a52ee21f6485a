package grpcwebsuite

import (
	"sort"

	"github.com/wirelab/wirelab/internal/manifest"
	"github.com/wirelab/wirelab/internal/matrix"
)

// Image is an image with a grpcweb role (client, server or converter).
type Image struct {
	Name, Ref string
	Manifest  bool // built from images/ (not given by reference with --image)
}

// Images lists the images that play role in the grpcweb suite, by name.
func Images(ms []*manifest.Manifest, role string) []Image {
	var out []Image
	for _, m := range ms {
		if m.Plays("grpcweb", role) {
			out = append(out, Image{Name: m.Name, Ref: m.Ref(), Manifest: m.Dir != ""})
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out
}

// Universe is every value each axis of the suite's cells can have: the server every image that
// sits behind a chain (interop servers, probes, conformance), the client every image that calls,
// the chains and the cases.
func Universe(chains []*Chain, cases []*Case, ms []*manifest.Manifest) matrix.Universe {
	u := matrix.Universe{}
	for _, role := range []string{"server", "probe", "conformance"} {
		for _, img := range Images(ms, role) {
			u[matrix.AxisServer] = append(u[matrix.AxisServer], img.Name)
		}
	}
	for _, role := range []string{"client", "probe", "conformance"} {
		for _, img := range Images(ms, role) {
			u[matrix.AxisClient] = append(u[matrix.AxisClient], img.Name)
		}
	}
	for _, ch := range chains {
		u[AxisChain] = append(u[AxisChain], ch.Name)
	}
	for _, c := range cases {
		u[matrix.AxisCase] = append(u[matrix.AxisCase], c.Name)
	}
	return u
}
