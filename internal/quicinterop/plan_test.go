package quicinterop

import (
	"testing"

	"github.com/wirelab/wirelab/internal/manifest"
	"github.com/wirelab/wirelab/internal/matrix"
)

func TestImplsFromManifests(t *testing.T) {
	m := func(name, yaml string) *manifest.Manifest {
		mf, err := manifest.Parse(name+"/manifest.yml", "", []byte(yaml))
		if err != nil {
			t.Fatal(err)
		}
		return mf
	}
	impls := ImplsFromManifests([]*manifest.Manifest{
		m("nginx", "name: nginx\nimplementation: {name: nginx, version: '1.26'}\nroles: {quic: [server]}\ntestcases: {quic: [handshake, http3, zerortt@server]}\n"),
		m("sim", "name: sim\nimplementation: {name: s, version: '1'}\nroles: {tool: [sim]}\n"),
		m("curl", "name: curl\nimplementation: {name: curl, version: '8.14'}\nroles: {quic: [client]}\n"),
	})
	if len(impls) != 2 || impls[0].Name != "curl" || !impls[0].Client || impls[0].Server || !impls[1].Server {
		t.Fatalf("%+v", impls)
	}
	if !impls[1].Supports("http3", "server") || impls[1].Supports("retry", "server") || !impls[0].Supports("retry", "client") {
		t.Fatal("declared test cases")
	}
	if !impls[1].Supports("zerortt", "server") || impls[1].Supports("zerortt", "client") {
		t.Fatal("a case declared for one role (zerortt@server)")
	}
}

func TestCommonALPN(t *testing.T) {
	curl := Impl{Name: "curl", ALPN: []string{"h3"}}
	nginx := Impl{Name: "nginx", ALPN: []string{"hq-interop", "h3"}}
	quicgo := Impl{Name: "quic-go"} // default: hq-interop, as upstream
	if ok, _ := commonALPN(curl, nginx); !ok {
		t.Error("curl (h3) and nginx (hq-interop, h3) share h3")
	}
	if ok, _ := commonALPN(quicgo, nginx); !ok {
		t.Error("quic-go and nginx share hq-interop")
	}
	if ok, why := commonALPN(curl, quicgo); ok || why != "no common ALPN: the client speaks h3, the server hq-interop (manifests' alpn.quic)" {
		t.Errorf("curl -> quic-go: %v %q", ok, why)
	}
}

// The plan skips the cells a manifest rules out and knows which cases measure.
func TestPlanCellsFromManifests(t *testing.T) {
	cases := []*Case{{Name: "handshake", Testcase: "handshake", TypicalSeconds: 10},
		{Name: "goodput", Testcase: "transfer", Measure: "goodput", TypicalSeconds: 100}}
	servers := []Impl{{Name: "s"}, {Name: "nginx", Testcases: map[string]bool{"handshake": true}}}
	cells := (&Matrix{clients: []Impl{{Name: "c"}}, servers: servers, cases: cases}).Cells()
	if len(cells) != 4 || cells[0].Skip || cells[3].Skip != true || cells[2].Skip || cells[1].Policy.Mode != matrix.AllMustPass ||
		cells[1].TypicalSeconds != 100 || cells[3].Why != "not in the image's declared test cases" {
		t.Fatalf("%+v", cells)
	}
	if cells[3].Server != "nginx" || cells[3].Case != "goodput" {
		t.Fatalf("order: servers outer, cases inner: %+v", cells)
	}
}
