package manifest

import (
	"errors"
	"testing"
)

func TestPinnedVersion(t *testing.T) {
	multi := Implementation{
		Version:  "nghttp3 1.15.0-1~bpo13+1 (orig tarball), python3-pylsqpack 0.3.18-2 (binary), afl++ 4.21c-5",
		Packages: []string{"nghttp3", "python3-pylsqpack", "afl++"},
	}
	cases := []struct {
		impl      Implementation
		pkg, want string
		ok        bool
	}{
		{Implementation{Version: "1.26.3-3+deb13u11", Packages: []string{"nginx"}}, "nginx", "1.26.3-3+deb13u11", true},
		{Implementation{Version: "0.65.0", Module: "github.com/quic-go/quic-go"}, "github.com/quic-go/quic-go", "0.65.0", true},
		{multi, "nghttp3", "1.15.0-1~bpo13+1", true},
		{multi, "python3-pylsqpack", "0.3.18-2", true},
		{multi, "afl++", "4.21c-5", true},
		{multi, "curl", "", false}, // not listed
		{Implementation{Version: "libnghttp3 1.0", Packages: []string{"nghttp3", "x"}}, "nghttp3", "", false}, // only as part of a word
	}
	for _, c := range cases {
		got, ok := c.impl.PinnedVersion(c.pkg)
		if got != c.want || ok != c.ok {
			t.Errorf("%q in %q: got %q %v, want %q %v", c.pkg, c.impl.Version, got, ok, c.want, c.ok)
		}
	}
}

func TestPackagesRejectedNamingField(t *testing.T) {
	head := "name: demo\nroles: {tool: [x]}\nimplementation: "
	cases := []struct{ name, impl, field string }{
		{"both", "{name: x, version: '1', packages: [x1], module: example.com/x}", "implementation.module"},
		{"bad module", "{name: x, version: '1', module: 'not a module'}", "implementation.module"},
		{"bad package", "{name: x, version: '1', packages: [Nginx]}", "implementation.packages[0]"},
		{"twice", "{name: x, version: 'curl 1-1', packages: [curl, curl]}", "implementation.packages[1]"},
		{"no per-package version", "{name: x, version: '1.0', packages: [curl, nginx]}", "implementation.packages[0]"},
	}
	for _, c := range cases {
		_, err := Parse("images/demo/manifest.yml", "images/demo", []byte(head+c.impl))
		var me *Error
		if !errors.As(err, &me) || me.Field != c.field {
			t.Errorf("%s: want field %q, got %v", c.name, c.field, err)
		}
	}
	ok := head + "{name: x, version: 'curl 8.1-1, nginx 1.2-3', packages: [curl, nginx]}"
	if _, err := Parse("images/demo/manifest.yml", "images/demo", []byte(ok)); err != nil {
		t.Fatal(err)
	}
}
