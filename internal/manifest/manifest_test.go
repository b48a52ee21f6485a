package manifest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const good = `
name: demo
implementation: {name: demo-impl, version: "1.2.3"}
roles:
  quic: [client, server]
  grpcweb: [converter]
testcases:
  quic: [handshake, transfer]
`

func TestParseGood(t *testing.T) {
	m, err := Parse("images/demo/manifest.yml", "images/demo", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if m.Ref() != "wirelab/demo:latest" || !m.Plays("quic", "server") || m.Plays("h2", "server") {
		t.Fatalf("unexpected manifest: %+v", m)
	}
}

// Every malformed manifest must be rejected with the file and the offending field named.
func TestParseRejectsNamingField(t *testing.T) {
	cases := []struct{ name, yaml, field string }{
		{"missing name", "implementation: {name: x, version: '1'}\nroles: {tool: [x]}", "name"},
		{"name vs folder", "name: other\nimplementation: {name: x, version: '1'}\nroles: {tool: [x]}", "name"},
		{"bad name", "name: Demo!\nimplementation: {name: x, version: '1'}\nroles: {tool: [x]}", "name"},
		{"no version", "name: demo\nimplementation: {name: x}\nroles: {tool: [x]}", "implementation.version"},
		{"no impl", "name: demo\nroles: {tool: [x]}", "implementation.name"},
		{"no roles", "name: demo\nimplementation: {name: x, version: '1'}", "roles"},
		{"empty roles", "name: demo\nimplementation: {name: x, version: '1'}\nroles: {quic: []}", "roles.quic"},
		{"unknown field", "name: demo\nversion: 3\nimplementation: {name: x, version: '1'}\nroles: {tool: [x]}", "version"},
		{"testcases without role", "name: demo\nimplementation: {name: x, version: '1'}\nroles: {tool: [x]}\ntestcases: {quic: [handshake]}", "testcases.quic"},
		{"escaping path", "name: demo\nimplementation: {name: x, version: '1'}\nroles: {tool: [x]}\nbuild: {context: ../..}", "build.context"},
		{"bad image ref", "name: demo\nimage: 'Not A Ref'\nimplementation: {name: x, version: '1'}\nroles: {tool: [x]}", "image"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("images/demo/manifest.yml", "images/demo", []byte(c.yaml))
			var me *Error
			if !errors.As(err, &me) {
				t.Fatalf("want *Error, got %v", err)
			}
			if me.Field != c.field || me.File != "images/demo/manifest.yml" {
				t.Fatalf("want field %q, got %q (%v)", c.field, me.Field, err)
			}
			if strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "images/demo/manifest.yml: "+c.field+": ") {
				t.Fatalf("not one line naming file and field: %q", err)
			}
		})
	}
}

func TestParseSyntaxErrorNamesFile(t *testing.T) {
	_, err := Parse("m.yml", "", []byte("name: [unclosed"))
	if err == nil || !strings.HasPrefix(err.Error(), "m.yml: ") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("got %v", err)
	}
	if _, err := Parse("m.yml", "", nil); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Fatalf("empty manifest: got %v", err)
	}
}

func TestFromRefs(t *testing.T) {
	df := `ARG ROOTFS=wirelab/rootfs:trixie
FROM ${ROOTFS}
FROM --platform=linux/amd64 wirelab/base:trixie AS builder
RUN true
FROM builder
FROM wirelab/endpoint
`
	got := strings.Join(FromRefs([]byte(df)), " ")
	if got != "wirelab/rootfs:trixie wirelab/base:trixie wirelab/endpoint" {
		t.Fatalf("got %q", got)
	}
}

// writeImage creates images/<name>/{manifest.yml,Dockerfile} under root.
func writeImage(t *testing.T, root, name, from string) {
	t.Helper()
	dir := filepath.Join(root, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	m := "name: " + name + "\nimplementation: {name: x, version: '1'}\nroles: {tool: [x]}\n"
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(m), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte("FROM "+from+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBuildOrderFollowsFromLines(t *testing.T) {
	root := t.TempDir()
	writeImage(t, root, "quicgo", "wirelab/endpoint:latest")
	writeImage(t, root, "endpoint", "wirelab/base")
	writeImage(t, root, "base", "debian:trixie-slim")
	all, err := LoadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	order, err := BuildOrder(all, []string{"quicgo"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range order {
		names = append(names, m.Name)
	}
	if strings.Join(names, ",") != "base,endpoint,quicgo" {
		t.Fatalf("order %v", names)
	}
	if _, err := BuildOrder(all, []string{"nope"}); err == nil {
		t.Fatal("unknown image accepted")
	}
}

func TestBuildOrderRejectsCycle(t *testing.T) {
	root := t.TempDir()
	writeImage(t, root, "a", "wirelab/b")
	writeImage(t, root, "b", "wirelab/a")
	all, err := LoadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := BuildOrder(all, nil); err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Fatalf("cycle not reported: %v", err)
	}
}

// The manifests shipped in images/ must all be valid.
func TestRepositoryManifestsAreValid(t *testing.T) {
	all, err := LoadDir("../../images")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := BuildOrder(all, nil); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, m := range all {
		names[m.Name] = true
	}
	if !names["base"] || !names["endpoint"] {
		t.Fatalf("base and endpoint manifests missing: %v", names)
	}
}

// Deps lists each wirelab image an image builds FROM once, whatever the stages; outside images
// (debian) are none of wirelab's.
func TestDepsOncePerImage(t *testing.T) {
	root := t.TempDir()
	writeImage(t, root, "base", "debian:trixie-slim")
	writeImage(t, root, "endpoint", "wirelab/base:latest")
	writeImage(t, root, "two", "wirelab/base AS build\nFROM wirelab/endpoint\nFROM wirelab/base")
	all, err := LoadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	deps, err := Deps(all)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range deps["two"] {
		got = append(got, d.Name)
	}
	if strings.Join(got, ",") != "base,endpoint" || len(deps["base"]) != 0 {
		t.Fatalf("deps %v, base %v", got, deps["base"])
	}
}

// The registered suites' schema: a suite not registered, a role or an ALPN it does not have is an
// error naming the file and the field.
func TestCheckAgainstTheSuitesSchema(t *testing.T) {
	schema := Schema{"quic": {Roles: []string{"client", "server"}, ALPN: []string{"hq-interop", "h3"}},
		"h2": {Roles: []string{"client", "server"}, ALPN: []string{"h2", "http/1.1"}}, "grpcweb": {Roles: []string{"client", "converter"}}}
	for _, c := range []struct{ name, yaml, field string }{
		{"unknown suite", "roles: {http9: [server]}", "roles.http9"},
		{"unknown role", "roles: {quic: [client, proxy]}", "roles.quic[1]"},
		{"bad alpn", "roles: {quic: [client]}\nalpn: {quic: [h2]}", "alpn.quic[0]"},
		{"alpn for a suite without", "roles: {grpcweb: [client]}\nalpn: {grpcweb: [h2]}", "alpn.grpcweb"},
		{"h3 for an h2 server", "roles: {h2: [server]}\nalpn: {h2: [h3]}", "alpn.h2[0]"},
	} {
		m, err := Parse("images/demo/manifest.yml", "images/demo", []byte("name: demo\nimplementation: {name: x, version: '1'}\n"+c.yaml))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		err = Check([]*Manifest{m}, schema)
		var me *Error
		if !errors.As(err, &me) || me.Field != c.field || me.File != "images/demo/manifest.yml" {
			t.Errorf("%s: %v, want field %s", c.name, err, c.field)
		}
	}
	m, _ := Parse("images/demo/manifest.yml", "images/demo", []byte("name: demo\nimplementation: {name: x, version: '1'}\nroles: {quic: [client], tool: [x]}\nalpn: {quic: [h3]}"))
	if err := Check([]*Manifest{m}, schema); err != nil {
		t.Errorf("a valid manifest: %v", err)
	}
}
