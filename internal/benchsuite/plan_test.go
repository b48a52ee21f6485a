package benchsuite

import (
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/manifest"
	"github.com/wirelab/wirelab/internal/matrix"
)

// planned is the plan's cell of server, client-protocol and variant on lte.
func planned(t *testing.T, cells []matrix.PlanCell, server, clientProtocol, variant string) matrix.PlanCell {
	t.Helper()
	for _, pc := range cells {
		if pc.Server == server && clientProto(pc.Cell) == clientProtocol && pc.Get(AxisVariant) == variant && pc.Case == "lte" {
			return pc
		}
	}
	t.Fatalf("no cell %s %s %q in the plan", server, clientProtocol, variant)
	return matrix.PlanCell{}
}

// A sweep's value the server's manifest declares runs; one it does not is unsupported in the
// plan, the manifest's file and field as the reason (not a 127 at run time). TCP cells pass no
// QUIC switch and run whatever the manifest says.
func TestPlanHoldsSwitchesToTheManifest(t *testing.T) {
	c := loadRepo(t)
	for _, x := range []struct {
		sel                 Selection
		server, cp, variant string
		skip                bool
		why                 string
	}{
		{Selection{GSO: "on,off"}, "nginx", "curl-h3", "gso-on", false, ""},
		{Selection{GSO: "on,off"}, "nginx", "curl-h3", "gso-off", false, ""},
		{Selection{GSO: "on,off"}, "haproxy", "curl-h3", "gso-off", false, ""},
		{Selection{GSO: "on,off"}, "haproxy", "curl-h3", "gso-on", true, "not declared: images/haproxy/manifest.yml: switches.quic_gso has no on (declared: off)"},
		{Selection{Congestion: "bbr"}, "nginx", "curl-h3", "bbr", true, "not declared: images/nginx/manifest.yml: switches.quic_cc has no bbr (declared: none)"},
		{Selection{Congestion: "bbr"}, "nginx", "curl-h2", "bbr", false, ""}, // the kernel's TCP
		{Selection{Congestion: "reno"}, "haproxy", "ngtcp2-h3", "reno", false, ""},
		{Selection{HyStart: "off"}, "haproxy", "curl-h3", "hystart-off", false, ""}, // with its default cubic
		{Selection{Congestion: "cubic", HyStart: "off"}, "haproxy", "curl-h3", "cubic+hystart-off", false, ""},
		{Selection{Congestion: "reno", HyStart: "off"}, "haproxy", "curl-h3", "reno+hystart-off", true,
			"not declared: images/haproxy/manifest.yml: switches.quic_hystart.reno has no off (declared: none)"},
		{Selection{HyStart: "on"}, "nginx", "curl-h3", "hystart-on", true,
			"not declared: images/nginx/manifest.yml: switches.quic_hystart.default has no on (declared: none)"},
		{Selection{GSO: "off"}, "caddy", "curl-h3", "gso-off", true, // an image given by --image
			"not declared: an image given by --image has no manifest: switches.quic_gso has no off (declared: none)"},
	} {
		x.sel.Profiles = "lte"
		p, err := c.Select(testServers, testClients, x.sel)
		if err != nil {
			t.Fatal(err)
		}
		pc := planned(t, p.PlanCells(nil), x.server, x.cp, x.variant)
		if pc.Skip != x.skip || pc.Why != x.why {
			t.Errorf("%s %s %s: skip %v %q, want %v %q", x.server, x.cp, x.variant, pc.Skip, pc.Why, x.skip, x.why)
		}
	}
}

// The servers' switches come from their manifests, with the file to name in a reason (as the
// checkout names it, wherever it is).
func TestServersFromManifestsCarrySwitches(t *testing.T) {
	m, err := manifest.Parse("/home/x/wirelab/images/demo/manifest.yml", "/home/x/wirelab/images/demo", []byte(`name: demo
implementation: {name: demo, version: "1"}
roles: {bench: [server]}
switches: {quic_cc: [cubic, bbr], quic_gso: [on]}
`))
	if err != nil {
		t.Fatal(err)
	}
	s := ServersFromManifests([]*manifest.Manifest{m})
	h3 := Protocol{Name: "h3", ALPN: "h3", Transport: "udp"}
	if len(s) != 1 || s[0].Manifest != "images/demo/manifest.yml" {
		t.Fatalf("servers %+v", s)
	}
	if ok, why := s[0].Takes(Variant{CC: "bbr", GSO: "on"}, h3); !ok {
		t.Errorf("declared bbr with GSO on: %q", why)
	}
	if ok, why := s[0].Takes(Variant{CC: "reno"}, h3); ok || !strings.Contains(why, "images/demo/manifest.yml: switches.quic_cc has no reno (declared: cubic, bbr)") {
		t.Errorf("undeclared reno: %v %q", ok, why)
	}
}
