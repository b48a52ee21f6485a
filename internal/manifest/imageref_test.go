package manifest

import "testing"

func TestFromImageRef(t *testing.T) {
	roles := []string{"client", "server"}
	m, err := FromImageRef("mine=registry.example:5000/q/mine:v1:client", "quic", roles)
	if err != nil || m.Ref() != "registry.example:5000/q/mine:v1" || !m.Plays("quic", "client") || m.Plays("quic", "server") || m.Dir != "" {
		t.Fatalf("%+v %v", m, err)
	}
	m, err = FromImageRef("mine=mine:latest", "quic", roles)
	if err != nil || m.Ref() != "mine:latest" || !m.Plays("quic", "client") || !m.Plays("quic", "server") {
		t.Fatalf("%+v %v", m, err)
	}
	m, err = FromImageRef("conv=me/conv:2:converter", "grpcweb", []string{"client", "server", "converter", "probe"})
	if err != nil || m.Ref() != "me/conv:2" || !m.Plays("grpcweb", "converter") || m.Plays("grpcweb", "server") {
		t.Fatalf("a suite's own role: %+v %v", m, err)
	}
	for _, bad := range []string{"noequals", "=x", "Bad Name=x:1", "ok=UPPER"} {
		if _, err := FromImageRef(bad, "quic", roles); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
