package grpcwebsuite

import (
	"fmt"
	"regexp"
)

// Chain is how a gRPC call travels from client to server: direct (client -> sim -> server, the
// oracle), or through an edge converter (HTTP/2 gRPC -> HTTP/1.1 gRPC-web), the sim, and an
// origin converter (gRPC-web -> HTTP/2 gRPC).
type Chain struct {
	Name         string `yaml:"name"`
	Description  string `yaml:"description"`
	Edge         string `yaml:"edge"`   // converter image name (manifest), or "" for direct
	Origin       string `yaml:"origin"` // converter image name (manifest)
	EdgeParams   string `yaml:"edge_params"`
	OriginParams string `yaml:"origin_params"`
	// OriginImageEnv names an environment variable holding an origin image this machine cannot
	// build (Envoy, from a registry): the chain is unsupported while it is unset.
	OriginImageEnv string `yaml:"origin_image_env"`
}

// Direct reports whether the chain has no converter (the oracle).
func (c *Chain) Direct() bool { return c.Edge == "" }

// DirectChain is the oracle chain's name.
const DirectChain = "direct"

var chainName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// LoadChains reads conformance/grpcweb/chains.yml. The direct chain must be there (it is every
// other chain's oracle); a converter chain names both converters.
func LoadChains(path string) ([]*Chain, error) {
	var doc struct {
		Chains []*Chain `yaml:"chains"`
	}
	if err := decodeStrict(path, &doc); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i, c := range doc.Chains {
		bad := func(field, f string, a ...any) error {
			return fmt.Errorf("%s: chains[%d].%s: %s", path, i, field, fmt.Sprintf(f, a...))
		}
		switch {
		case !chainName.MatchString(c.Name):
			return nil, bad("name", "%q: want lowercase letters, digits and -", c.Name)
		case seen[c.Name]:
			return nil, bad("name", "%q twice", c.Name)
		case c.Name == DirectChain && (c.Edge != "" || c.Origin != ""):
			return nil, bad("edge", "the direct chain has no converters")
		case c.Name != DirectChain && c.Edge == "":
			return nil, bad("edge", "missing (only the direct chain has no converters)")
		case c.Name != DirectChain && c.Origin == "" && c.OriginImageEnv == "":
			return nil, bad("origin", "missing (a converter image, or origin_image_env)")
		}
		seen[c.Name] = true
	}
	if !seen[DirectChain] {
		return nil, fmt.Errorf("%s: chains: no %q chain (the oracle every other chain is compared with)", path, DirectChain)
	}
	return doc.Chains, nil
}
