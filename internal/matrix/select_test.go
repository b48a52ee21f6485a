package matrix

import (
	"strings"
	"testing"
)

func TestSelect(t *testing.T) {
	all := []string{"a", "b", "c"}
	got, err := Select(all, "c,a", func(s string) string { return s }, "thing")
	if err != nil || strings.Join(got, "") != "ca" {
		t.Fatal(got, err)
	}
	if _, err := Select(all, "z", func(s string) string { return s }, "thing"); err == nil || !strings.Contains(err.Error(), "known: a, b, c") {
		t.Fatal(err)
	}
}
