package main

import (
	"errors"
	"testing"
)

func TestPlanFor(t *testing.T) {
	supported := map[string][]string{
		"client": {"handshake", "transfer", "retry", "keyupdate", "multiconnect", "resumption", "amplificationlimit"},
		"server": {"handshake", "transfer", "retry", "keyupdate", "multiconnect", "chacha20", "amplificationlimit"},
	}
	unsupported := map[string][]string{
		"client": {"chacha20", "zerortt", "http3", "v2", "ecn", "connectionmigration", "versionnegotiation", "", "xyz123"},
		"server": {"resumption", "zerortt", "http3", "v2", "ecn", "connectionmigration", "versionnegotiation", "", "xyz123"},
	}
	for role, cases := range supported {
		for _, tc := range cases {
			if _, err := planFor(role, tc); err != nil {
				t.Errorf("planFor(%s, %s): %v", role, tc, err)
			}
		}
	}
	for role, cases := range unsupported {
		for _, tc := range cases {
			if _, err := planFor(role, tc); !errors.Is(err, errUnsupported) {
				t.Errorf("planFor(%s, %q) = %v, want errUnsupported (exit 127)", role, tc, err)
			}
		}
	}
	if _, err := planFor("", "handshake"); err == nil || errors.Is(err, errUnsupported) {
		t.Errorf("planFor with no ROLE = %v, want a plain error (exit 1)", err)
	}
	if p, _ := planFor("server", "retry"); !p.requireAddr {
		t.Error("server retry: address validation (Retry) not required")
	}
	if p, _ := planFor("server", "transfer"); p.requireAddr {
		t.Error("server transfer: Retry required, want none")
	}
	if p, _ := planFor("client", "multiconnect"); p.mode != connPerURL {
		t.Error("client multiconnect: want one connection per URL")
	}
	if p, _ := planFor("client", "resumption"); p.mode != resumeAfter1 {
		t.Error("client resumption: want a resumed second connection")
	}
}
