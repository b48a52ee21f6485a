package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The page's paths come from the network (the server's GET and PUSH names): save and serve stay
// inside their folders, and what is saved is what was posted.
func TestServerPaths(t *testing.T) {
	downloads, www := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(www, "wt"), 0o755)
	os.WriteFile(filepath.Join(www, "wt", "f"), []byte("abc"), 0o644)
	s := newServer(config{}, downloads, www)
	do := func(method, target, body string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(method, target, strings.NewReader(body)))
		return w
	}
	if w := do("POST", "/save?path=wt/x", "bytes"); w.Code != http.StatusOK {
		t.Fatalf("save: %d %s", w.Code, w.Body)
	}
	if b, err := os.ReadFile(filepath.Join(downloads, "wt", "x")); err != nil || string(b) != "bytes" {
		t.Fatalf("saved %q, %v", b, err)
	}
	if w := do("GET", "/www?path=wt/f", ""); w.Code != http.StatusOK || w.Body.String() != "abc" {
		t.Fatalf("serve: %d %q", w.Code, w.Body)
	}
	for _, bad := range []string{"", "../x", "wt/../../x", "/"} {
		if w := do("POST", "/save?path="+bad, "x"); w.Code != http.StatusBadRequest {
			t.Errorf("save %q: %d, want 400", bad, w.Code)
		}
		if w := do("GET", "/www?path="+bad, ""); w.Code != http.StatusBadRequest {
			t.Errorf("serve %q: %d, want 400", bad, w.Code)
		}
	}
}
