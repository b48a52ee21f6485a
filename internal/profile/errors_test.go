package profile

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

const file = "images/sim/profiles.yml"

// matchError checks err is a one-line *Error for file naming field, whose
// message contains msg.
func matchError(err error, field, msg string) error {
	var e *Error
	if !errors.As(err, &e) {
		return fmt.Errorf("got %v (%T), want *Error at %s", err, err, field)
	}
	if e.File != file || e.Field != field || !strings.Contains(e.Msg, msg) {
		return fmt.Errorf("got\n  %v\nwant field %q, message containing %q", e, field, msg)
	}
	if line := e.Error(); strings.ContainsAny(line, "\r\n") || line != e.File+": "+e.Field+": "+e.Msg && e.Field != "" {
		return fmt.Errorf("not one \"file: field: msg\" line: %q", line)
	}
	return nil
}

func wantError(t *testing.T, err error, field, msg string) {
	t.Helper()
	if err := matchError(err, field, msg); err != nil {
		t.Error(err)
	}
}

// good is a valid file; the bad cases each break one thing in a copy of it,
// so a failure is due to that one thing.
const good = `
profiles:
  base:
    description: ok
    both: {delay: 10ms, rate: 10Mbit, queue: 25pkt}
  child:
    extends: base
    to_client: {loss: 1%}
    params:
      l: {set: to_client.loss, doc: loss}
  sched:
    schedule:
      - {at: 0s, profile: base}
      - {at: 5s, profile: child}
`

func TestGoodFileParses(t *testing.T) {
	if _, err := Parse(file, []byte(good)); err != nil {
		t.Fatal(err)
	}
}

func TestFileErrors(t *testing.T) {
	cases := []struct {
		name, yaml, field, msg string
	}{
		// Values.
		{"negative delay", "profiles: {lte: {to_client: {delay: -5ms}}}", "profiles.lte.to_client.delay", `negative duration "-5ms"`},
		{"negative jitter", "profiles: {x: {both: {jitter: -1ms}}}", "profiles.x.both.jitter", `negative duration "-1ms"`},
		{"bad duration", "profiles: {x: {both: {delay: 5 ms}}}", "profiles.x.both.delay", `bad duration "5 ms"`},
		{"duration without unit", "profiles: {x: {both: {delay: 15}}}", "profiles.x.both.delay", `bad duration "15"`},
		{"loss over 100%", "profiles: {x: {both: {loss: 101%}}}", "profiles.x.both.loss", `percentage "101%" out of range [0%, 100%]`},
		{"loss below 0", "profiles: {x: {to_server: {loss: -1%}}}", "profiles.x.to_server.loss", `percentage "-1%" out of range`},
		{"loss not a number", "profiles: {x: {both: {loss: lots}}}", "profiles.x.both.loss", `bad percentage "lots"`},
		{"corrupt over 100", "profiles: {x: {both: {corrupt: 150}}}", "profiles.x.both.corrupt", `percentage "150" out of range`},
		{"negative corrupt window", "profiles: {x: {both: {corrupt: 1%, corrupt_window: -1}}}", "profiles.x.both.corrupt_window", `count "-1" out of range [0, 1000000]`},
		{"corrupt window not a number", "profiles: {x: {to_client: {corrupt_window: 50B}}}", "profiles.x.to_client.corrupt_window", `bad count "50B"`},
		{"corrupt window fraction", "profiles: {x: {to_server: {corrupt_window: 1.5}}}", "profiles.x.to_server.corrupt_window", `bad count "1.5"`},
		{"corrupt window list", "profiles: {x: {both: {corrupt_window: [50]}}}", "profiles.x.both.corrupt_window", `want a single value, got a list`},
		{"bad corrupt deliver", "profiles: {x: {both: {corrupt_deliver: yes}}}", "profiles.x.both.corrupt_deliver", `bad boolean "yes"`},
		{"corrupt deliver missing", "profiles: {x: {to_client: {corrupt_deliver: }}}", "profiles.x.to_client.corrupt_deliver", `missing value`},
		{"duplicate over 100", "profiles: {x: {both: {duplicate: 100.5%}}}", "profiles.x.both.duplicate", `out of range`},
		{"reorder over 100", "profiles: {x: {both: {reorder: {probability: 200%}}}}", "profiles.x.both.reorder.probability", `percentage "200%" out of range`},
		{"reorder below 0", "profiles: {x: {both: {reorder: {probability: -3}}}}", "profiles.x.both.reorder.probability", `out of range`},
		{"ge over 100", "profiles: {x: {both: {gilbert_elliott: {p: 120%, r: 1%}}}}", "profiles.x.both.gilbert_elliott.p", `out of range`},
		{"bad rate unit", "profiles: {x: {both: {rate: 10MB}}}", "profiles.x.both.rate", `bad rate unit "MB" in "10MB"`},
		{"rate without unit", "profiles: {x: {both: {rate: 10}}}", "profiles.x.both.rate", `bad rate unit "" in "10"`},
		{"bad queue unit", "profiles: {x: {both: {queue: 10foo}}}", "profiles.x.both.queue", `bad queue unit "foo" in "10foo"`},
		{"empty queue", "profiles: {x: {both: {queue: 0pkt}}}", "profiles.x.both.queue", `out of range`},
		{"bad threshold unit", "profiles: {x: {both: {ce_threshold: bdp}}}", "profiles.x.both.ce_threshold", `bad threshold unit "bdp"`},
		{"unknown distribution", "profiles: {x: {both: {jitter_distribution: gaussian}}}", "profiles.x.both.jitter_distribution", `unknown distribution "gaussian"`},
		{"bad boolean", "profiles: {x: {both: {jitter_reorder: yes}}}", "profiles.x.both.jitter_reorder", `bad boolean "yes"`},
		{"bad count", "profiles: {x: {both: {reorder: {probability: 1%, gap: -1}}}}", "profiles.x.both.reorder.gap", `out of range`},
		{"bad burst", "profiles: {x: {both: {loss: 1%, burst: 0.5}}}", "profiles.x.both.burst", `out of range [1`},
		{"bad droplist", "profiles: {x: {to_client: {droplist: \"1,x\"}}}", "profiles.x.to_client.droplist", `bad packet index "x"`},
		{"droplist index 0", "profiles: {x: {to_client: {droplist: [0, 2]}}}", "profiles.x.to_client.droplist", `indices start at 1`},
		{"droplist nested", "profiles: {x: {to_client: {droplist: [[1]]}}}", "profiles.x.to_client.droplist[0]", `want a packet index`},
		{"blackhole direction", "profiles: {x: {both: {blackhole: {on: 1s, off: 1s, direction: up}}}}", "profiles.x.both.blackhole.direction", `unknown direction "up"`},
		{"missing value", "profiles: {x: {both: {delay: }}}", "profiles.x.both.delay", `missing value`},
		{"mapping for value", "profiles: {x: {both: {delay: {ms: 5}}}}", "profiles.x.both.delay", `want a single value, got a mapping`},
		{"list for section", "profiles: {x: {both: [1]}}", "profiles.x.both", `want a mapping, got a list`},
		{"bad profile name", "profiles: {\"a:b\": {}}", "profiles.a:b", `bad profile name`},

		// Keys.
		{"unknown top key", "profile: {}", "profile", `unknown key (valid: profiles)`},
		{"unknown profile key", "profiles: {x: {tx_client: {}}}", "profiles.x.tx_client", `unknown key (valid: description, extends, params, both, to_client, to_server, rebind, schedule)`},
		{"unknown link key", "profiles: {x: {both: {dealy: 5ms}}}", "profiles.x.both.dealy", `unknown key (valid: delay,`},
		{"unknown nested key", "profiles: {x: {both: {blackhole: {on: 1s, of: 1s}}}}", "profiles.x.both.blackhole.of", `unknown key (valid: on, off, repeat, direction)`},
		{"unknown rebind key", "profiles: {x: {rebind: {first: 1s, every: 1s}}}", "profiles.x.rebind.every", `unknown key`},
		{"duplicate key", "profiles:\n  x:\n    both: {delay: 1ms}\n    both: {delay: 2ms}\n", "profiles.x.both", `duplicate key`},
		{"merge key", "profiles:\n  x: &a {both: {delay: 1ms}}\n  y:\n    <<: *a\n", "profiles.y.<<", `merge keys are not supported; use extends`},

		// Consistency.
		{"burst and ge", "profiles: {x: {both: {loss: 1%, burst: 2, gilbert_elliott: {p: 1%, r: 10%}}}}", "profiles.x.to_server.burst", `mutually exclusive`},
		{"burst at 100% loss", "profiles: {x: {to_client: {loss: 100%, burst: 2}}}", "profiles.x.to_client.burst", `must be in [0,1)`},
		{"ge without r", "profiles: {x: {to_client: {gilbert_elliott: {p: 1%}}}}", "profiles.x.to_client.gilbert_elliott", `p and r are required`},
		{"reorder without probability", "profiles: {x: {both: {reorder: {gap: 3}}}}", "profiles.x.to_server.reorder.probability", `required`},
		{"blackhole without off", "profiles: {x: {both: {blackhole: {on: 1s}}}}", "profiles.x.to_server.blackhole.off", `required`},
		{"blackhole off 0", "profiles: {x: {to_client: {blackhole: {on: 1s, off: 0s}}}}", "profiles.x.to_client.blackhole.off", `must be positive`},
		{"blackhole without on", "profiles: {x: {to_client: {blackhole: {off: 1s}}}}", "profiles.x.to_client.blackhole.on", `required`},
		{"blackhole repeat 0", "profiles: {x: {to_client: {blackhole: {on: 1s, off: 1s, repeat: 0}}}}", "profiles.x.to_client.blackhole.repeat", `at least 1`},
		{"rebind nothing", "profiles: {x: {rebind: {first: 1s, port: false}}}", "profiles.x.rebind", `rebinds nothing`},
		{"rebind without first", "profiles: {x: {rebind: {freq: 1s}}}", "profiles.x.rebind.first", `required`},
		{"unknown extends", "profiles: {x: {extends: nope}}", "profiles.x.extends", `unknown profile "nope"`},
		{"extends cycle", "profiles: {a: {extends: b}, b: {extends: a}}", "profiles.b.extends", `cycle a -> b -> a`},
		{"param without set", "profiles: {x: {params: {l: {doc: loss}}}}", "profiles.x.params.l.set", `required`},
		{"param bad path", "profiles: {x: {params: {l: {set: to_client.lost}}}}", "profiles.x.params.l.set", `unknown key "lost"`},
		{"param section path", "profiles: {x: {params: {l: {set: both.blackhole}}}}", "profiles.x.params.l.set", `is a section`},
		{"param bad name", "profiles: {x: {params: {a.b: {set: both.loss}}}}", "profiles.x.params.a.b", `bad parameter name`},

		// Schedules.
		{"schedule unknown profile", "profiles: {a: {}, h: {schedule: [{at: 0s, profile: a}, {at: 5s, profile: 4g}]}}", "profiles.h.schedule[1].profile", `unknown profile "4g"`},
		{"schedule out of order", "profiles: {a: {}, h: {schedule: [{at: 0s, profile: a}, {at: 5s, profile: a}, {at: 3s, profile: a}]}}", "profiles.h.schedule[2].at", `3s is not after the previous entry (5s)`},
		{"schedule same time", "profiles: {a: {}, h: {schedule: [{at: 0s, profile: a}, {at: 0s, profile: a}]}}", "profiles.h.schedule[1].at", `not after`},
		{"schedule late start", "profiles: {a: {}, h: {schedule: [{at: 1s, profile: a}]}}", "profiles.h.schedule[0].at", `must be at 0s`},
		{"schedule without profile", "profiles: {a: {}, h: {schedule: [{at: 0s}]}}", "profiles.h.schedule[0].profile", `required`},
		{"schedule without at", "profiles: {a: {}, h: {schedule: [{profile: a}]}}", "profiles.h.schedule[0].at", `required`},
		{"schedule bad override", "profiles: {a: {}, h: {schedule: [{at: 0s, profile: \"a:both.loss=300%\"}]}}", "profiles.h.schedule[0].profile", `a:both.loss: percentage "300%" out of range`},
		{"schedule nested", "profiles: {a: {}, g: {schedule: [{at: 0s, profile: a}]}, h: {schedule: [{at: 0s, profile: g}]}}", "profiles.h.schedule[0].profile", `schedules do not nest`},
		{"schedule with links", "profiles: {a: {}, h: {both: {delay: 1ms}, schedule: [{at: 0s, profile: a}]}}", "profiles.h.schedule", `takes its links from the scheduled profiles`},
		{"schedule of a rebinding profile", "profiles: {a: {rebind: {first: 1s}}, h: {schedule: [{at: 0s, profile: a}]}}", "profiles.h.schedule[0].profile", `rebinding is per run`},
		{"schedule not a list", "profiles: {h: {schedule: {at: 0s}}}", "profiles.h.schedule", `want a list`},

		// Documents.
		{"syntax error", "profiles: {x: [}", "", `did not find expected`},
		{"empty file", "", "", `empty file`},
		{"two documents", "profiles: {x: {}}\n---\nprofiles: {y: {}}\n", "", `exactly one YAML document`},
		{"no profiles", "profiles: {}", "profiles", `no profiles defined`},
		{"not a mapping", "- a\n- b\n", "", `want a mapping, got a list`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(file, []byte(c.yaml))
			wantError(t, err, c.field, c.msg)
		})
	}
}

func TestReferenceErrors(t *testing.T) {
	f, err := Parse(file, []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ ref, field, msg string }{
		{"nosuch", "profiles.nosuch", `unknown profile (known: base, child, sched)`},
		{"", "", `empty profile reference`},
		{"child:bogus=1", "child:bogus", `unknown parameter (known: l;`},
		{"child:l=500%", "child:l", `percentage "500%" out of range`},
		{"base:both.dealy=5ms", "base:both.dealy", `unknown key "dealy"`},
		{"base:both.delay=-5ms", "base:both.delay", `negative duration "-5ms"`},
		{"base:both.corrupt_window=-50", "base:both.corrupt_window", `count "-50" out of range`},
		{"base:to_client.corrupt_window=half", "base:to_client.corrupt_window", `bad count "half"`},
		{"base:both.corrupt_deliver=1", "base:both.corrupt_deliver", `bad boolean "1"`},
		{"base:both.rate=10MB", "base:both.rate", `bad rate unit "MB"`},
		{"base:both.queue=3furlongs", "base:both.queue", `bad queue unit "furlongs"`},
		{"base:both.jitter_distribution=zipf", "base:both.jitter_distribution", `unknown distribution "zipf"`},
		{"base:both.blackhole=5s", "base:both.blackhole", `is a section`},
		{"base:both.delay.ms=5", "base:both.delay.ms", `"both.delay" is a value, not a section`},
		{"base:description.x=1", "base:description.x", `cannot override "description"`},
		{"base::both.loss=1%", "base:", `empty override`},
		{"base:both.loss", "base:both.loss", `bad percentage "true"`},
		{"base:both.loss=1%:both.burst=2:both.gilbert_elliott.p=1%", "profiles.base.to_server.burst", `mutually exclusive`},
		{"sched:both.loss=101", "sched:both.loss", `out of range`},
	}
	for _, c := range cases {
		t.Run(c.ref, func(t *testing.T) {
			_, err := f.Resolve(c.ref)
			wantError(t, err, c.field, c.msg)
		})
	}
}

func TestLoadFileErrors(t *testing.T) {
	_, err := LoadFile("testdata/does-not-exist.yml")
	var e *Error
	if !errors.As(err, &e) || e.File != "testdata/does-not-exist.yml" {
		t.Errorf("missing file: %v", err)
	}
}

// TestMatchErrorRejectsMismatch shows the assertion used above can fail.
func TestMatchErrorRejectsMismatch(t *testing.T) {
	if err := matchError(&Error{File: file, Field: "profiles.x", Msg: "a m b"}, "profiles.x", "m"); err != nil {
		t.Fatalf("rejected a match: %v", err)
	}
	for _, err := range []error{
		nil,
		errors.New("plain"),
		&Error{File: "other.yml", Field: "profiles.x", Msg: "m"},
		&Error{File: file, Field: "profiles.y", Msg: "m"},
		&Error{File: file, Field: "profiles.x", Msg: "other"},
	} {
		if matchError(err, "profiles.x", "m") == nil {
			t.Errorf("matchError accepted %v", err)
		}
	}
	// A message with a newline still prints as one line.
	e := &Error{File: file, Field: "f", Msg: "a\nb"}
	if strings.Contains(e.Error(), "\n") {
		t.Errorf("multi-line error %q", e.Error())
	}
}
