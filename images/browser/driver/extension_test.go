package main

import (
	"archive/zip"
	"encoding/json"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Firefox's extension runs the page's own scripts, in the page's order, after driver.js naming
// the driver's origin; its manifest grants the host permission that lifts the CORS check.
func TestWriteExtension(t *testing.T) {
	profile := t.TempDir()
	if err := writeExtension(profile, "http://127.0.0.1:4321/bench.html"); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.OpenReader(filepath.Join(profile, "extensions", extensionID+".xpi"))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	files := map[string]string{}
	for _, f := range zr.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(r)
		r.Close()
		files[f.Name] = string(data)
	}
	var m struct {
		Permissions []string `json:"permissions"`
		Background  struct {
			Scripts []string `json:"scripts"`
		} `json:"background"`
		Settings struct {
			Gecko struct {
				ID string `json:"id"`
			} `json:"gecko"`
		} `json:"browser_specific_settings"`
	}
	if err := json.Unmarshal([]byte(files["manifest.json"]), &m); err != nil {
		t.Fatalf("manifest.json: %v", err)
	}
	if want := []string{"driver.js", "common.js", "bench.js"}; !slices.Equal(m.Background.Scripts, want) {
		t.Errorf("background scripts %v, want %v", m.Background.Scripts, want)
	}
	if !slices.Contains(m.Permissions, "<all_urls>") || m.Settings.Gecko.ID != extensionID {
		t.Errorf("manifest: permissions %v, id %q", m.Permissions, m.Settings.Gecko.ID)
	}
	if !strings.Contains(files["driver.js"], `"http://127.0.0.1:4321"`) {
		t.Errorf("driver.js %q does not name the driver's origin", files["driver.js"])
	}
	for _, s := range m.Background.Scripts[1:] {
		want, _ := pageFS.ReadFile("page/" + s)
		if files[s] != string(want) {
			t.Errorf("%s in the extension is not the page's", s)
		}
	}
}

// A page the driver does not have, or one without scripts, is an error, not an empty extension.
func TestPageScriptsRefusesUnknownPage(t *testing.T) {
	for _, u := range []string{"http://127.0.0.1:1/nope.html", "http://127.0.0.1:1/page/../../etc/passwd"} {
		if _, _, err := pageScripts(u); err == nil {
			t.Errorf("%s: no error", u)
		}
	}
	if _, scripts, err := pageScripts("http://127.0.0.1:1/h3.html"); err != nil || !slices.Equal(scripts, []string{"common.js", "h3.js"}) {
		t.Errorf("h3.html: %v %v", scripts, err)
	}
}
