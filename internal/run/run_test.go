package run

import (
	"testing"
	"time"
)

func TestNewIDIsValidAndUnique(t *testing.T) {
	now := time.Date(2026, 11, 21, 13, 45, 1, 0, time.UTC)
	a, b := NewID(now), NewID(now)
	if !ValidID(a) || a[:15] != "20261121-134501" {
		t.Fatalf("bad id %q", a)
	}
	if a == b {
		t.Fatalf("two ids in the same second collide: %q", a)
	}
}

func TestValidIDRejectsWhatComposeOrLabelsCannotCarry(t *testing.T) {
	for _, id := range []string{"", "Upper", "has space", "../x", "-lead", "a:b", "x23456789012345678901234567890123456789012345678901"} {
		if ValidID(id) {
			t.Errorf("ValidID(%q) = true", id)
		}
	}
	for _, id := range []string{"a", "ci-smoke_1", "20261121-134501-3fa2"} {
		if !ValidID(id) {
			t.Errorf("ValidID(%q) = false", id)
		}
	}
}
