package profile

import (
	"fmt"
	"testing"
	"time"

	"github.com/wirelab/wirelab/internal/netem"
)

const bundled = "../../images/sim/profiles.yml"

func loadBundled(t testing.TB) *File {
	t.Helper()
	f, err := LoadFile(bundled)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

const ms = time.Millisecond

// link is the expected shape of one direction.
type link struct {
	delay time.Duration
	rate  int64
	queue netem.Depth // effective limit, after the BDP default
	loss  float64
}

// spec is what a bundled profile promises in its description.
type spec struct {
	up, down link
}

func sym(l link) spec { return spec{up: l, down: l} }

func bdp(rate int64, delay time.Duration) netem.Depth {
	return netem.Depth{Bytes: netem.BDP(rate, 2*delay)}
}

func checkLink(dir string, p netem.Params, want link) error {
	got := link{delay: p.Delay, rate: p.Rate, queue: p.QueueLimit(), loss: p.Loss}
	if got != want {
		return fmt.Errorf("%s: got %+v, want %+v", dir, got, want)
	}
	return nil
}

func checkSpec(r *Resolved, want spec) error {
	init := r.Initial()
	if err := checkLink("to_server", init.ToServer, want.up); err != nil {
		return err
	}
	return checkLink("to_client", init.ToClient, want.down)
}

var specs = map[string]spec{
	"ideal":       sym(link{}),
	"simple-p2p":  sym(link{delay: 15 * ms, rate: 10e6, queue: netem.Depth{Packets: 25}}),
	"lte":         sym(link{delay: 25 * ms, rate: 22e6, queue: bdp(22e6, 25*ms)}),
	"3g":          {up: link{delay: 75 * ms, rate: 768e3, queue: bdp(768e3, 75*ms)}, down: link{delay: 75 * ms, rate: 1.6e6, queue: bdp(1.6e6, 75*ms)}},
	"2g":          {up: link{delay: 200 * ms, rate: 100e3, queue: bdp(100e3, 200*ms)}, down: link{delay: 200 * ms, rate: 200e3, queue: bdp(200e3, 200*ms)}},
	"wifi":        sym(link{delay: 6 * ms, rate: 50e6, queue: bdp(50e6, 6*ms), loss: 0.002}),
	"satellite":   {up: link{delay: 300 * ms, rate: 3e6, queue: bdp(3e6, 300*ms)}, down: link{delay: 300 * ms, rate: 25e6, queue: bdp(25e6, 300*ms)}},
	"fast-upload": sym(link{delay: 20 * ms, rate: 200e6, queue: bdp(200e6, 20*ms)}),
	"gigabit":     sym(link{delay: 1 * ms, rate: 1e9, queue: bdp(1e9, 1*ms)}),
	"slow-upload": sym(link{delay: 10 * ms, rate: 5e6, queue: bdp(5e6, 10*ms)}),
}

func init() {
	p2p := specs["simple-p2p"]
	for _, n := range []string{"drop-rate", "corrupt-rate", "droplist", "blackhole", "rebind", "rebind-port", "rebind-addr"} {
		specs[n] = p2p
	}
	for n := range 9 {
		specs[fmt.Sprintf("lossy-%d", n)] = sym(link{delay: 30 * ms, rate: 5e6, queue: bdp(5e6, 30*ms), loss: float64(n) / 100})
	}
	specs["handover"] = specs["lte"]
}

func TestBundledProfilesMatchSpecs(t *testing.T) {
	f := loadBundled(t)
	if len(f.Names()) != len(specs) {
		t.Errorf("file has %d profiles, specs cover %d: %v", len(f.Names()), len(specs), f.Names())
	}
	for _, name := range f.Names() {
		r, err := f.Resolve(name)
		if err != nil {
			t.Fatal(err)
		}
		want, ok := specs[name]
		if !ok {
			t.Errorf("%s: no spec", name)
			continue
		}
		if err := checkSpec(r, want); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if _, err := r.Emulator(1); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if info, err := f.Info(name); err != nil || info.Description == "" {
			t.Errorf("%s: no description (%v)", name, err)
		}
	}
	// RTTs the brief fixes, spelled as RTT.
	lte, _ := f.Resolve("lte")
	if rtt := 2 * lte.Initial().ToClient.Delay; rtt != 50*ms {
		t.Errorf("lte RTT %v", rtt)
	}
	sat, _ := f.Resolve("satellite")
	if rtt := 2 * sat.Initial().ToClient.Delay; rtt != 600*ms {
		t.Errorf("satellite RTT %v", rtt)
	}
}

// TestSpecCheckRejectsWrongProfile shows checkSpec is not vacuous.
func TestSpecCheckRejectsWrongProfile(t *testing.T) {
	f := loadBundled(t)
	for _, c := range [][2]string{{"lte", "simple-p2p"}, {"3g", "2g"}, {"lossy-3", "lossy-4"}, {"satellite", "3g"}} {
		r, _ := f.Resolve(c[0])
		if checkSpec(r, specs[c[1]]) == nil {
			t.Errorf("%s passed as %s", c[0], c[1])
		}
	}
	r, _ := f.Resolve("3g")
	swapped := spec{up: specs["3g"].down, down: specs["3g"].up}
	if checkSpec(r, swapped) == nil {
		t.Error("3g passed with up and down swapped")
	}
}

func TestUpstreamScenarios(t *testing.T) {
	f := loadBundled(t)
	resolve := func(ref string) *Resolved {
		t.Helper()
		r, err := f.Resolve(ref)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}

	r := resolve("drop-rate:rate_to_client=10:rate_to_server=20")
	if l := r.Initial(); l.ToClient.Loss != 0.10 || l.ToServer.Loss != 0.20 || l.ToClient.GE != nil {
		t.Errorf("drop-rate: %+v", l)
	}
	if r.Name != "drop-rate:to_client.loss=10:to_server.loss=20" {
		t.Errorf("canonical name %q", r.Name)
	}
	// Upstream's --burst_to_* caps runs of random loss: loss_max_run, not a Gilbert model.
	r = resolve("drop-rate:rate_to_client=10:burst_to_client=3")
	if l := r.Initial(); l.ToClient.Loss != 0.10 || l.ToClient.LossMaxRun != 3 || l.ToClient.GE != nil || l.ToServer.LossMaxRun != 0 {
		t.Errorf("drop-rate with burst: %+v", l.ToClient)
	}
	want, _ := netem.GEFromBurst(0.10, 3)
	if l := resolve("simple-p2p:to_client.loss=10%:to_client.burst=3").Initial(); l.ToClient.GE == nil || *l.ToClient.GE != want || l.ToClient.Loss != 0 {
		t.Errorf("burst (Gilbert) form: %+v", l.ToClient)
	}
	if l := resolve("drop-rate:to_client.loss=5%:to_server.loss=5%").Initial(); l.ToClient.Loss != 0.05 || l.ToServer.Loss != 0.05 {
		t.Errorf("path form: %+v", l)
	}

	if l := resolve("corrupt-rate:rate_to_client=3:rate_to_server=7").Initial(); l.ToClient.Corrupt != 0.03 || l.ToServer.Corrupt != 0.07 {
		t.Errorf("corrupt-rate: %+v", l)
	}
	// Upstream's corrupt-rate: one of the first 50 payload bytes, delivered with a fixed
	// checksum, both ways; the generic corrupt key keeps the checksum-loss default.
	type mode struct {
		window  int
		deliver bool
	}
	for _, c := range []struct {
		ref      string
		up, down mode
	}{
		{"corrupt-rate:rate_to_client=30:rate_to_server=30", mode{50, true}, mode{50, true}},
		{"corrupt-rate:rate_to_client=5:both.corrupt_deliver=false:both.corrupt_window=0", mode{}, mode{}},
		{"corrupt-rate:to_server.corrupt_window=1200:to_client.corrupt_deliver=false", mode{1200, true}, mode{50, false}},
		{"simple-p2p:both.corrupt=5%", mode{}, mode{}},
		{"simple-p2p:both.corrupt=5%:both.corrupt_window=20:to_client.corrupt_deliver", mode{20, false}, mode{20, true}},
	} {
		l := resolve(c.ref).Initial()
		up, down := mode{l.ToServer.CorruptWindow, l.ToServer.CorruptDeliver}, mode{l.ToClient.CorruptWindow, l.ToClient.CorruptDeliver}
		if up != c.up || down != c.down {
			t.Errorf("%s: up %+v down %+v, want %+v %+v", c.ref, up, down, c.up, c.down)
		}
	}

	l := resolve("droplist:drops_to_client=1,3,5:drops_to_server=2").Initial()
	if fmt.Sprint(l.ToClient.Droplist, l.ToServer.Droplist) != "[1 3 5] [2]" {
		t.Errorf("droplist: %v %v", l.ToClient.Droplist, l.ToServer.Droplist)
	}

	l = resolve("blackhole").Initial()
	if want := (netem.Blackhole{On: 10 * time.Second, Off: 2 * time.Second, Repeat: 1}); l.ToClient.Blackhole != want || l.ToServer.Blackhole != want {
		t.Errorf("blackhole defaults: %+v", l)
	}
	for dir, want := range map[string][2]bool{"both": {true, true}, "toclient": {true, false}, "toserver": {false, true}} {
		l := resolve("blackhole:on=5s:off=1s:repeat=3:direction=" + dir).Initial()
		got := [2]bool{l.ToClient.Blackhole.Off > 0, l.ToServer.Blackhole.Off > 0}
		if got != want {
			t.Errorf("direction=%s: to_client/to_server blackholed %v", dir, got)
		}
		if want[0] && l.ToClient.Blackhole != (netem.Blackhole{On: 5 * time.Second, Off: time.Second, Repeat: 3}) {
			t.Errorf("direction=%s: %+v", dir, l.ToClient.Blackhole)
		}
	}

	for ref, want := range map[string]netem.Rebind{
		"rebind":                                {First: time.Second, Freq: 5 * time.Second, Port: true},
		"rebind-port":                           {First: time.Second, Freq: 5 * time.Second, Port: true},
		"rebind-addr":                           {First: time.Second, Freq: 5 * time.Second, Port: true, Addr: true},
		"rebind:rebind-addr":                    {First: time.Second, Freq: 5 * time.Second, Port: true, Addr: true},
		"rebind:first-rebind=2s:rebind-freq=0s": {First: 2 * time.Second, Port: true},
		"rebind-addr:rebind-port=false":         {First: time.Second, Freq: 5 * time.Second, Addr: true},
	} {
		if got := resolve(ref).Rebind; got != want {
			t.Errorf("%s: %+v, want %+v", ref, got, want)
		}
	}
	if resolve("simple-p2p").Rebind.Enabled() {
		t.Error("simple-p2p rebinds")
	}
	if l := resolve("simple-p2p:delay=20ms:bandwidth=5Mbps:queue=30").Initial(); l.ToClient.Delay != 20*ms || l.ToServer.Rate != 5e6 || l.ToClient.Queue.Packets != 30 {
		t.Errorf("upstream-style simple-p2p: %+v", l)
	}
}

func TestHandoverSchedule(t *testing.T) {
	f := loadBundled(t)
	r, err := f.Resolve("handover")
	if err != nil {
		t.Fatal(err)
	}
	lte, _ := f.Resolve("lte")
	g3, _ := f.Resolve("3g")
	if len(r.Schedule) != 2 || r.Schedule[0].At != 0 || r.Schedule[1].At != 5*time.Second {
		t.Fatalf("schedule %+v", r.Schedule)
	}
	if fmt.Sprint(r.Schedule[0].Links) != fmt.Sprint(lte.Initial()) || fmt.Sprint(r.Schedule[1].Links) != fmt.Sprint(g3.Initial()) {
		t.Errorf("phases are not lte then 3g: %+v", r.Schedule)
	}
	// Overrides reach every phase.
	r, err = f.Resolve("handover:both.loss=1%")
	if err != nil {
		t.Fatal(err)
	}
	for _, ph := range r.Schedule {
		if ph.Links.ToClient.Loss != 0.01 || ph.Links.ToServer.Loss != 0.01 {
			t.Errorf("phase %s: loss %+v", ph.Name, ph.Links)
		}
	}
	// The emulator switches at 5 s.
	e, err := r.Emulator(1)
	if err != nil {
		t.Fatal(err)
	}
	e.Process(4999*ms, netem.ToClient, netem.PacketInfo{Size: 100})
	if e.Phase() != "lte" {
		t.Errorf("phase at 4.999s: %s", e.Phase())
	}
	e.Process(5*time.Second, netem.ToClient, netem.PacketInfo{Size: 100})
	if e.Phase() != "3g" {
		t.Errorf("phase at 5s: %s", e.Phase())
	}
}

func TestOverridePrecedence(t *testing.T) {
	f := loadBundled(t)
	// to_client beats both, whatever the order in the reference.
	for _, ref := range []string{"lte:both.delay=1ms:to_client.delay=2ms", "lte:to_client.delay=2ms:both.delay=1ms"} {
		r, err := f.Resolve(ref)
		if err != nil {
			t.Fatal(err)
		}
		if l := r.Initial(); l.ToClient.Delay != 2*ms || l.ToServer.Delay != ms {
			t.Errorf("%s: %v / %v", ref, l.ToClient.Delay, l.ToServer.Delay)
		}
	}
	// A both override beats the profile's own per-direction value.
	r, err := f.Resolve("3g:both.rate=1Mbit")
	if err != nil {
		t.Fatal(err)
	}
	if l := r.Initial(); l.ToClient.Rate != 1e6 || l.ToServer.Rate != 1e6 {
		t.Errorf("3g both.rate override: %+v", l)
	}
	// Extends: a child's section merges key by key with its parent's.
	r, err = f.Resolve("blackhole:both.blackhole.off=3s")
	if err != nil {
		t.Fatal(err)
	}
	if b := r.Initial().ToClient.Blackhole; b.On != 10*time.Second || b.Off != 3*time.Second {
		t.Errorf("partial section override: %+v", b)
	}
	// Resolving must not leak overrides into the file.
	plain, _ := f.Resolve("blackhole")
	if plain.Initial().ToClient.Blackhole.Off != 2*time.Second {
		t.Error("an override changed the loaded profile")
	}
}

func TestInfoListsParams(t *testing.T) {
	f := loadBundled(t)
	info, err := f.Info("drop-rate")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range info.Params {
		names = append(names, p.Name+"="+p.Set)
	}
	// Inherited from simple-p2p plus its own.
	want := "[bandwidth=both.rate burst_to_client=to_client.loss_max_run burst_to_server=to_server.loss_max_run delay=both.delay queue=both.queue rate_to_client=to_client.loss rate_to_server=to_server.loss]"
	if fmt.Sprint(names) != want {
		t.Errorf("params %v", names)
	}
	if info.Extends != "simple-p2p" {
		t.Errorf("extends %q", info.Extends)
	}
	if _, err := f.Info("nope"); err == nil {
		t.Error("Info of an unknown profile")
	}
}
