package grpcwebsuite

import (
	"sort"

	"github.com/wirelab/wirelab/internal/manifest"
	"github.com/wirelab/wirelab/internal/matrix"
)

// Image is an image with a grpcweb role (client, server or converter).
type Image struct{ Name, Ref string }

// Images lists the images that play role in the grpcweb suite, by name.
func Images(ms []*manifest.Manifest, role string) []Image {
	var out []Image
	for _, m := range ms {
		if m.Plays("grpcweb", role) {
			out = append(out, Image{Name: m.Name, Ref: m.Ref()})
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out
}

// Universe is every cell name the suite can have: the server column is image@chain for every
// image that sits behind a chain (interop servers, probes, conformance), the client column every
// image that calls.
func Universe(chains []*Chain, cases []*Case, ms []*manifest.Manifest) matrix.Universe {
	var u matrix.Universe
	for _, role := range []string{"server", "probe", "conformance"} {
		for _, img := range Images(ms, role) {
			for _, ch := range chains {
				u.Servers = append(u.Servers, serverSlot(img.Name, ch.Name))
			}
		}
	}
	for _, role := range []string{"client", "probe", "conformance"} {
		for _, img := range Images(ms, role) {
			u.Clients = append(u.Clients, img.Name)
		}
	}
	for _, c := range cases {
		u.Cases = append(u.Cases, c.Name)
	}
	return u
}
