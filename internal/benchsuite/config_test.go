package benchsuite

import (
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/manifest"
	"github.com/wirelab/wirelab/internal/matrix"
)

func loadRepo(t *testing.T) *Config {
	t.Helper()
	c, err := Load("../../conformance/bench/bench.yml")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// testClients: curl speaks all three protocols, ngtcp2's client h3 only.
var testClients = []Client{
	{Name: "curl", Image: "wirelab/curl:latest", ALPN: []string{"http/1.1", "h2", "h3"}},
	{Name: "ngtcp2", Image: "wirelab/ngtcp2:latest", ALPN: []string{"h3"}},
}

// testServers, with the switches their manifests declare: nginx GSO on and off, haproxy reno
// too and HyStart++ with its cubic.
var testServers = []Server{
	{Name: "caddy", Image: "wirelab/caddy:latest", ALPN: []string{"http/1.1", "h2", "h3"}},
	{Name: "go-h2", Image: "wirelab/go-h2:latest", ALPN: []string{"http/1.1", "h2"}},
	{Name: "haproxy", Image: "wirelab/haproxy:latest", ALPN: []string{"http/1.1", "h2", "h3"}, Manifest: "images/haproxy/manifest.yml",
		Switches: manifest.Switches{CC: []string{"cubic", "reno"}, GSO: []string{"off"},
			HyStart: map[string][]string{manifest.DefaultCC: {"on", "off"}, "cubic": {"on", "off"}}}},
	{Name: "nginx", Image: "wirelab/nginx:latest", ALPN: []string{"http/1.1", "h2", "h3"}, Manifest: "images/nginx/manifest.yml",
		Switches: manifest.Switches{GSO: []string{"on", "off"}}},
}

// The repository's bench file is the testbed: four sizes, three protocols, the six
// access profiles and the loss sweep lossy-0..8.
func TestRepoBenchFile(t *testing.T) {
	c := loadRepo(t)
	var sizes, profiles []string
	for _, s := range c.Sizes {
		sizes = append(sizes, s.Name)
	}
	p, err := c.Select(testServers, testClients, Selection{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range p.Profiles {
		profiles = append(profiles, p.Name)
	}
	if strings.Join(sizes, ",") != "1KB,100KB,1MB,10MB" || c.Repetitions < 5 || len(c.Protocols) != 3 {
		t.Errorf("sizes %v, repetitions %d, %d protocols", sizes, c.Repetitions, len(c.Protocols))
	}
	// The default set; ideal (no impairment) runs only when --profiles names it.
	if got := strings.Join(profiles, ","); got != "2g,3g,lte,wifi,satellite,simple-p2p,lossy-0,lossy-1,lossy-2,lossy-4,lossy-8" {
		t.Errorf("profiles %s", got)
	}
	if p, err := c.Select(testServers, testClients, Selection{Profiles: "ideal,lte"}); err != nil || len(p.Profiles) != 2 || p.Profiles[0].Name != "ideal" {
		t.Errorf("--profiles ideal,lte: %v %+v", err, p)
	}
	if strings.Join(c.GSOModes, ",") != "on,off" {
		t.Errorf("gso_modes %v", c.GSOModes)
	}
}

// The plan comes from the data: quick is the short set, flags narrow it, sizes go smallest first.
func TestSelectPlan(t *testing.T) {
	c := loadRepo(t)
	p, err := c.Select(testServers, testClients, Selection{Quick: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Servers) != 1 || p.Servers[0].Name != "nginx" || len(p.Profiles) != 2 || len(p.Sizes) != 2 || p.Repetitions != 2 {
		t.Fatalf("quick plan: %+v", p)
	}
	// curl over h1, h2, h3 and ngtcp2's client over h3, on two profiles.
	if cells := p.PlanCells(nil); len(cells) != 8 || clientProto(cells[0].Cell) != "curl-h1" || cells[0].Case != "lte" || clientProto(cells[6].Cell) != "ngtcp2-h3" {
		t.Errorf("quick cells: %+v", cells)
	}
	p, err = c.Select(testServers, testClients, Selection{Sizes: "10MB,1KB", Profiles: "2g,lte", Reps: 3})
	if err != nil {
		t.Fatal(err)
	}
	if p.Sizes[0].Name != "1KB" || p.Repetitions != 3 || len(p.PlanCells(nil)) != len(testServers)*4*2 {
		t.Errorf("plan: sizes %v, reps %d, %d cells", p.Sizes, p.Repetitions, len(p.PlanCells(nil)))
	}
	if on2g := p.SizesOn(p.Profiles[0]); len(on2g) != 1 || on2g[0].Name != "1KB" {
		t.Errorf("2g skips 10MB: %v", on2g)
	}
	skipped := 0
	for _, pc := range p.PlanCells(map[string]int64{"lte": 22e6}) {
		if pc.Skip {
			skipped++
			if pc.Server != "go-h2" || (clientProto(pc.Cell) != "curl-h3" && clientProto(pc.Cell) != "ngtcp2-h3") {
				t.Errorf("skipped %s", pc.Label())
			}
		}
	}
	if skipped != 4 {
		t.Errorf("%d cells skipped, want go-h2's four h3 cells", skipped)
	}
	for sel, want := range map[Selection]string{
		{Profiles: "lte,5g"}:                    "--profiles: unknown profile \"5g\"",
		{Sizes: "3KB"}:                          "--sizes: unknown size",
		{Servers: "apache"}:                     "--servers: unknown server",
		{Reps: -2}:                              "--reps -2",
		{GSO: "on,maybe"}:                       `--gso: unknown GSO mode "maybe"`,
		{Congestion: "vegas"}:                   `--congestion: unknown congestion control "vegas"`,
		{Clients: "wget"}:                       `--clients: unknown client "wget"`,
		{Clients: "ngtcp2", Protocols: "h2,h3"}: "--protocols h2: none of the clients (--clients) speaks it",
	} {
		if _, err := c.Select(testServers, testClients, sel); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: %v, want %q", sel, err, want)
		}
	}
}

// A QUIC stack's client alone: the default protocols shrink to the one it speaks.
func TestSelectQUICClientOnly(t *testing.T) {
	p, err := loadRepo(t).Select(testServers, testClients, Selection{Servers: "nginx", Clients: "ngtcp2", Profiles: "lte"})
	if err != nil {
		t.Fatal(err)
	}
	if cells := p.PlanCells(nil); len(p.Protocols) != 1 || len(cells) != 1 || clientProto(cells[0].Cell) != "ngtcp2-h3" {
		t.Errorf("protocols %v, cells %+v", p.Protocols, cells)
	}
	if got := strings.Join((&Plan{Clients: testClients, Protocols: loadRepo(t).Protocols}).ClientNames(), ","); got != "curl-h1,curl-h2,curl-h3,ngtcp2-h3" {
		t.Errorf("all client names %s", got)
	}
}

func TestServes(t *testing.T) {
	h3 := Protocol{Name: "h3", ALPN: "h3"}
	if ok, why := testServers[1].Serves(h3); ok || !strings.Contains(why, "does not serve h3") {
		t.Errorf("go-h2 serves h3: %v %q", ok, why)
	}
	if ok, _ := testServers[0].Serves(h3); !ok {
		t.Error("caddy does not serve h3")
	}
}

func TestDownloadLimit(t *testing.T) {
	// 10 MB at 5 Mbit/s = 16 s; ten times that, a hundred 60 ms round trips, 30 s.
	if got := DownloadLimit(10_000_000, 5_000_000, 60e6).Seconds(); got != 196 {
		t.Errorf("limit %v s", got)
	}
}

// clientProto names a cell's client with its protocol, as the bench's first line does.
func clientProto(c matrix.Cell) string { return c.Client + "-" + c.Get(AxisProtocol) }
