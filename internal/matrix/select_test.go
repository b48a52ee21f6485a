package matrix

import (
	"slices"
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

// The selection is a slice of its own: deleting from it in place (as the gRPC-web suite drops
// its bench case) must not clear the caller's list (a default `make grpcweb` panicked on that).
func TestSelectDoesNotAlias(t *testing.T) {
	all := []string{"a", "bench", "c"}
	got, err := Select(all, "", func(s string) string { return s }, "case")
	if err != nil {
		t.Fatal(err)
	}
	got = slices.DeleteFunc(got, func(s string) bool { return s == "bench" })
	if len(got) != 2 || all[2] != "c" || all[1] != "bench" {
		t.Fatalf("the selection shares its array with the input: %q %q", got, all)
	}
}
