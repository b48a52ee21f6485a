package quicinterop

import (
	"fmt"
	"sort"
	"strings"

	"github.com/wirelab/wirelab/internal/manifest"

	"github.com/wirelab/wirelab/internal/matrix"
)

// Impl is one QUIC implementation: an image and the roles and cases it declares.
type Impl struct {
	Name      string
	Image     string
	Client    bool
	Server    bool
	Testcases map[string]bool // test case names it declares; nil (an image given by reference): try every case
	URL       string
	ALPN      []string // what it speaks in the ordinary cases (not http3); nil: hq-interop
	Manifest  bool     // built from images/ (not given by reference with --image)
}

// commonALPN reports whether two images share an application protocol for the ordinary cases
// (http3 always runs h3), and if not, why in one line.
func commonALPN(client, server Impl) (bool, string) {
	cl, sv := orDefault(client.ALPN), orDefault(server.ALPN)
	for _, a := range cl {
		for _, b := range sv {
			if a == b {
				return true, ""
			}
		}
	}
	return false, fmt.Sprintf("no common ALPN: the client speaks %s, the server %s (manifests' alpn.quic)", strings.Join(cl, ","), strings.Join(sv, ","))
}

func orDefault(alpn []string) []string {
	if len(alpn) == 0 {
		return []string{"hq-interop"}
	}
	return alpn
}

// Supports reports whether the image declares the test case (by case name, e.g. "longrtt") in a
// role: in every role, or in that one ("resumption@client").
func (i Impl) Supports(name, role string) bool {
	return i.Testcases == nil || i.Testcases[name] || i.Testcases[name+"@"+role]
}

// ImplsFromManifests lists the images with a quic role.
func ImplsFromManifests(ms []*manifest.Manifest) []Impl { return ImplsFor(ms, "quic") }

// ImplsFor are the implementations with a role in suite (quic, webtransport): client, server or
// both, with the test cases their manifests declare for it.
func ImplsFor(ms []*manifest.Manifest, suite string) []Impl {
	var out []Impl
	for _, m := range ms {
		if len(m.Roles[suite]) == 0 {
			continue
		}
		impl := Impl{Name: m.Name, Image: m.Ref(), Client: m.Plays(suite, "client"), Server: m.Plays(suite, "server"), URL: m.Implementation.Source, ALPN: m.ALPN[suite], Manifest: m.Dir != ""}
		// A list, even an empty one, declares the cases; no list at all (an image given by
		// reference) means every case is tried.
		if tcs, listed := m.Testcases[suite]; listed {
			impl.Testcases = map[string]bool{}
			for _, tc := range tcs {
				impl.Testcases[tc] = true
			}
		}
		out = append(out, impl)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out
}

// declaredUnsupported is why a cell is unsupported before it runs ("" when it runs): a
// manifest does not declare the case, or the pair has no common ALPN.
func declaredUnsupported(server, client Impl, c *Case) string {
	if !server.Supports(c.Name, "server") || !client.Supports(c.Name, "client") {
		return "not in the image's declared test cases"
	}
	if ok, why := commonALPN(client, server); !ok && c.Testcase != "http3" {
		return why
	}
	return ""
}

// Columns are the cases as the terminal table shows them.
func Columns(cases []*Case) []matrix.Column {
	out := make([]matrix.Column, len(cases))
	for i, c := range cases {
		out[i] = matrix.Column{Name: c.Name, Abbr: c.Abbr}
	}
	return out
}

// Roster is a suite's implementations from the manifests, and those a run selected.
type Roster struct {
	ByName                 map[string]Impl
	AllClients, AllServers []Impl
	Clients, Servers       []Impl
}

// SelectRoster splits the implementations with a role in suite into clients and servers and
// selects the comma lists clients and servers (empty: all); a name not among them is an error
// naming its flag.
func SelectRoster(ms []*manifest.Manifest, suite, clients, servers string) (Roster, error) {
	r := Roster{ByName: map[string]Impl{}}
	for _, i := range ImplsFor(ms, suite) {
		if i.Client {
			r.AllClients = append(r.AllClients, i)
		}
		if i.Server {
			r.AllServers = append(r.AllServers, i)
		}
		r.ByName[i.Name] = i
	}
	name := func(i Impl) string { return i.Name }
	var err error
	if r.Clients, err = matrix.Select(r.AllClients, clients, name, "client"); err != nil {
		return r, fmt.Errorf("--clients: %w", err)
	}
	if r.Servers, err = matrix.Select(r.AllServers, servers, name, "server"); err != nil {
		return r, fmt.Errorf("--servers: %w", err)
	}
	return r, nil
}
