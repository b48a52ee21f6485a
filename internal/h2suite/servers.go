package h2suite

import (
	"sort"

	"github.com/wirelab/wirelab/internal/manifest"
)

// Server is an image with the h2 server role.
type Server struct {
	Name, Image, URL string
	ALPN             []string // what it accepts (manifest alpn.h2); nil: h2 and http/1.1
	Manifest         bool     // built from images/ (not given by reference with --image)
}

// Speaks reports whether the server accepts the application protocol (h2, http/1.1).
func (s Server) Speaks(alpn string) bool {
	if s.ALPN == nil {
		return true
	}
	for _, a := range s.ALPN {
		if a == alpn {
			return true
		}
	}
	return false
}

// supports says whether a section can run against the server, and if not why: an HTTP/1.1
// upload needs a server that speaks HTTP/1.1.
func (s Server) supports(sec *Section) (bool, string) {
	if sec.UploadProto() == "h1" && !s.Speaks("http/1.1") {
		return false, "the server speaks no HTTP/1.1 (manifest alpn.h2)"
	}
	return true, ""
}

// ServersFromManifests lists the images that serve HTTP/2 (role h2: server), by name.
func ServersFromManifests(ms []*manifest.Manifest) []Server {
	var out []Server
	for _, m := range ms {
		if m.Plays("h2", "server") {
			out = append(out, Server{Name: m.Name, Image: m.Ref(), URL: m.Implementation.Source, ALPN: m.ALPN["h2"], Manifest: m.Dir != ""})
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out
}
