package grpcwebsuite

import (
	"sort"

	"github.com/wirelab/wirelab/internal/manifest"
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
