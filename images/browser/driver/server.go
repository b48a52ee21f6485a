package main

import (
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

//go:embed page
var pageFS embed.FS

// result is what the page posts to /done.
type result struct {
	OK  bool   `json:"ok"`
	Why string `json:"why"`
	// a bench download's body: its length and SHA-256 (hex), as the page read it
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// server is the page's only way out of the browser: its config, its log lines, the files it
// saves and serves, and its verdict.
type server struct {
	*http.ServeMux
	done      chan result
	downloads string
	www       string
	once      sync.Once
}

func newServer(cfg config, downloads, www string) *server {
	s := &server{ServeMux: http.NewServeMux(), done: make(chan result, 1), downloads: downloads, www: www}
	page, _ := fs.Sub(pageFS, "page")
	s.Handle("GET /", http.FileServerFS(page))
	s.HandleFunc("GET /config", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(cfg) //nolint:errcheck // the page sees a broken body
	})
	s.HandleFunc("POST /log", s.log)
	s.HandleFunc("POST /save", s.save)
	s.HandleFunc("GET /www", s.serve)
	s.HandleFunc("POST /done", s.finish)
	return s
}

func (s *server) log(w http.ResponseWriter, r *http.Request) {
	line, _ := io.ReadAll(r.Body)
	fmt.Printf("page: %s\n", strings.TrimSpace(string(line)))
}

// save writes the body to /downloads/<path>: a file that came over the network.
func (s *server) save(w http.ResponseWriter, r *http.Request) {
	name, err := inside(s.downloads, r.URL.Query().Get("path"))
	if err == nil {
		err = os.MkdirAll(filepath.Dir(name), 0o755)
	}
	if err == nil {
		var f *os.File
		if f, err = os.Create(name); err == nil {
			_, err = io.Copy(f, r.Body)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
	}
}

// serve answers with /www/<path>: what the page sends when the server requests a file.
func (s *server) serve(w http.ResponseWriter, r *http.Request) {
	name, err := inside(s.www, r.URL.Query().Get("path"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	data, err := os.ReadFile(name)
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Write(data) //nolint:errcheck // the page sees a short body
}

func (s *server) finish(w http.ResponseWriter, r *http.Request) {
	var res result
	if err := json.NewDecoder(r.Body).Decode(&res); err != nil {
		res = result{Why: "the page's verdict: " + err.Error()}
	}
	s.once.Do(func() { s.done <- res })
}

// inside joins root and a relative path from the page, refusing one that leaves root: the
// names come from the network (the server's GETs and PUSHes).
func inside(root, rel string) (string, error) {
	clean := filepath.Clean("/" + rel)
	if rel == "" || clean == "/" || strings.Contains(rel, "..") {
		return "", fmt.Errorf("bad path %q", rel)
	}
	return filepath.Join(root, clean), nil
}
