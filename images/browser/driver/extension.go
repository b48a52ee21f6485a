package main

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Firefox runs the QUIC suite's and the bench's page scripts as an extension's background page,
// not in the driver's page: the page's fetch() of the server (another origin, whose answers carry
// no CORS headers) reaches the server and gets its answer, but Firefox withholds the answer from
// the page, and its only switch, content.cors.disable, makes every cross-origin request fail
// instead. An extension with a host permission for all URLs fetches without that check, through
// the same network stack (necko, neqo for HTTP/3). Firefox ESR loads it unsigned from the profile
// (xpinstall.signatures.required off, its profile scope enabled at start: extensionPrefs).

// extensionID names the extension: the XPI's file name in the profile must be it.
const extensionID = "driver@wirelab.invalid"

// extensionPrefs let Firefox ESR load the unsigned extension from the profile without asking.
var extensionPrefs = map[string]any{
	"xpinstall.signatures.required": false,
	"extensions.autoDisableScopes":  0,
	"extensions.startupScanScopes":  1, // the profile's extensions folder
}

// extensionManifest is the XPI's manifest.json: a background page running scripts in order.
func extensionManifest(scripts []string) ([]byte, error) {
	return json.MarshalIndent(map[string]any{
		"manifest_version":          2,
		"name":                      "wirelab driver",
		"version":                   "1",
		"browser_specific_settings": map[string]any{"gecko": map[string]string{"id": extensionID}},
		"permissions":               []string{"<all_urls>"},
		"background":                map[string]any{"scripts": scripts},
	}, "", "  ")
}

// pageScripts are the scripts pageURL's page loads (its <script src> in order): for h3.html
// common.js and h3.js.
func pageScripts(pageURL string) (origin string, scripts []string, err error) {
	u, err := url.Parse(pageURL)
	if err != nil {
		return "", nil, err
	}
	page := strings.TrimPrefix(path.Clean(u.Path), "/")
	if page == "" {
		page = "index.html"
	}
	html, err := pageFS.ReadFile("page/" + page)
	if err != nil {
		return "", nil, fmt.Errorf("no page %q: %v", page, err)
	}
	for _, part := range strings.Split(string(html), `<script src="`)[1:] {
		name, _, ok := strings.Cut(part, `"`)
		if !ok {
			return "", nil, fmt.Errorf("page %s: an unterminated <script src>", page)
		}
		scripts = append(scripts, name)
	}
	if len(scripts) == 0 {
		return "", nil, fmt.Errorf("page %s loads no script", page)
	}
	return u.Scheme + "://" + u.Host, scripts, nil
}

// writeExtension writes the XPI into profile/extensions: pageURL's scripts as the background
// page, after a driver.js telling them the driver's origin (they post to it as the page does).
func writeExtension(profile, pageURL string) error {
	origin, scripts, err := pageScripts(pageURL)
	if err != nil {
		return err
	}
	manifest, err := extensionManifest(append([]string{"driver.js"}, scripts...))
	if err != nil {
		return err
	}
	dir := filepath.Join(profile, "extensions")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, extensionID+".xpi"))
	if err != nil {
		return err
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	add := func(name string, data []byte) error {
		w, err := zw.Create(name)
		if err == nil {
			_, err = w.Write(data)
		}
		return err
	}
	if err := add("manifest.json", manifest); err != nil {
		return err
	}
	if err := add("driver.js", []byte(fmt.Sprintf("self.wirelabDriver = %q;\n", origin))); err != nil {
		return err
	}
	for _, s := range scripts {
		data, err := pageFS.ReadFile("page/" + s)
		if err != nil {
			return err
		}
		if err := add(s, data); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return f.Close()
}
