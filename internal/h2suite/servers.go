package h2suite

import (
	"sort"

	"github.com/wirelab/wirelab/internal/manifest"
)

// Server is an image with the h2 server role.
type Server struct {
	Name, Image, URL string
}

// ServersFromManifests lists the images that serve HTTP/2 (role h2: server), by name.
func ServersFromManifests(ms []*manifest.Manifest) []Server {
	var out []Server
	for _, m := range ms {
		if m.Plays("h2", "server") {
			out = append(out, Server{Name: m.Name, Image: m.Ref(), URL: m.Implementation.Source})
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out
}
