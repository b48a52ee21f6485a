package netem

import (
	"encoding/json"
	"math"
	"testing"
)

func TestStatsAddUp(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		e := newEmu(t, Config{Seed: seed, Profile: "busy", Schedule: Static("busy", both(busy()))})
		var per [2][]Decision
		for i := range 20_000 {
			dir := Directions[i%2]
			p := udp(100 + i%1300)
			p.ECN = ECT0
			per[dir] = append(per[dir], e.Process(ms*timeIndex(i/8), dir, p))
		}
		st := e.Stats()
		for _, dir := range Directions {
			ls := map[Direction]LinkStats{ToServer: st.ToServer, ToClient: st.ToClient}[dir]
			ok(t, statsAddUp(ls, per[dir]))
			d := ls.Dropped
			if d.Loss == 0 || d.GELoss == 0 || d.Queue == 0 || d.Blackhole == 0 || d.Droplist != 2 ||
				ls.Corrupted == 0 || ls.Duplicated == 0 || ls.Reordered == 0 || ls.CEMarked == 0 {
				t.Errorf("seed %d %v: some impairment never fired: %+v", seed, dir, ls)
			}
		}
	}
}

func TestStatsJSON(t *testing.T) {
	e := newEmu(t, Config{Seed: 42, Profile: "lte", Schedule: Static("lte", DirParams{})})
	e.Process(0, ToServer, udp(100))
	b, err := json.Marshal(e.Stats())
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m["profile"] != "lte" || m["seed"] != 42.0 {
		t.Errorf("top level: %s", b)
	}
	up, _ := m["to_server"].(map[string]any)
	for _, k := range []string{"packets_in", "packets_out", "dropped", "corrupted", "duplicated", "reordered", "out_of_order", "ce_marked", "max_queue_packets", "max_queue_bytes", "bytes_out"} {
		if _, ok := up[k]; !ok {
			t.Errorf("to_server.%s missing in %s", k, b)
		}
	}
	drops, _ := up["dropped"].(map[string]any)
	for _, k := range []string{"loss", "ge_loss", "queue", "blackhole", "droplist", "nat"} {
		if _, ok := drops[k]; !ok {
			t.Errorf("to_server.dropped.%s missing in %s", k, b)
		}
	}
	if up["packets_in"] != 1.0 || up["bytes_out"] != 100.0 {
		t.Errorf("counts: %s", b)
	}
}

func TestParamsValidate(t *testing.T) {
	if err := busy().Validate(); err != nil {
		t.Fatalf("busy rejected: %v", err)
	}
	for name, p := range map[string]Params{
		"negative delay":      {Delay: -1},
		"negative jitter":     {Jitter: -1},
		"bad distribution":    {JitterDist: 7},
		"loss > 1":            {Loss: 1.01},
		"corrupt < 0":         {Corrupt: -0.1},
		"duplicate NaN":       {Duplicate: math.NaN()},
		"reorder > 1":         {Reorder: Reorder{Probability: 2}},
		"negative gap":        {Reorder: Reorder{Gap: -1}},
		"ge out of range":     {GE: &GilbertElliott{R: 2}},
		"droplist index 0":    {Droplist: []int{0}},
		"negative rate":       {Rate: -1},
		"negative queue":      {Queue: Depth{Packets: -1}},
		"negative threshold":  {CEThreshold: Depth{Bytes: -1}},
		"blackhole no off":    {Blackhole: Blackhole{On: s, Repeat: 1}},
		"blackhole no repeat": {Blackhole: Blackhole{On: s, Off: s}},
	} {
		if p.Validate() == nil {
			t.Errorf("%s accepted", name)
		}
		if _, err := NewLink(ToServer, 0, p); err == nil {
			t.Errorf("NewLink accepted %s", name)
		}
	}
	if _, err := NewLink(Direction(5), 0, Params{}); err == nil {
		t.Error("direction 5 accepted")
	}
}

func TestDirectionAndCauseNames(t *testing.T) {
	if ToServer.String() != "to-server" || ToClient.String() != "to-client" {
		t.Error(ToServer, ToClient)
	}
	want := map[DropCause]string{DropLoss: "loss", DropGELoss: "ge-loss", DropQueue: "queue", DropBlackhole: "blackhole", DropDroplist: "droplist", DropNAT: "nat"}
	for c, n := range want {
		if c.String() != n {
			t.Errorf("%d: %q want %q", c, c.String(), n)
		}
	}
}
