package main

import (
	"reflect"
	"testing"
)

func TestParseRequests(t *testing.T) {
	ts, err := parseRequests(" https://server4:443/abc  https://server4/def\thttps://[fd00::1]:4433/x/y ")
	if err != nil {
		t.Fatal(err)
	}
	want := []target{
		{authority: "server4:443", host: "server4", path: "/abc", file: "abc"},
		{authority: "server4:443", host: "server4", path: "/def", file: "def"},
		{authority: "[fd00::1]:4433", host: "fd00::1", path: "/x/y", file: "x/y"},
	}
	if !reflect.DeepEqual(ts, want) {
		t.Fatalf("parseRequests =\n%+v\nwant\n%+v", ts, want)
	}
	groups := byAuthority(append(ts, target{authority: "server4:443", path: "/z"}))
	if len(groups) != 2 || len(groups[0]) != 3 || len(groups[1]) != 1 || groups[0][2].path != "/z" {
		t.Errorf("byAuthority = %+v", groups)
	}
}

func TestParseRequestsRejects(t *testing.T) {
	for _, in := range []string{"", "   ", "http://server4/abc", "https:///abc", "https://server4/",
		"https://server4", "https://server4/../etc/passwd", "https://server4/a/../../b", "%zz"} {
		if ts, err := parseRequests(in); err == nil {
			t.Errorf("parseRequests(%q) = %+v, want an error", in, ts)
		}
	}
}
