// Package fuzzcov renders the fuzzing and coverage sections of the HTML report from what
// `make fuzz` and `make coverage` leave in out/. It returns HTML fragments; the report supplies
// the page, the stylesheet (classes pass, fail, warn, num, na, latest) and the navigation.
package fuzzcov

import (
	"bytes"
	"embed"
	"html/template"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Section is one titled part of the report.
type Section struct {
	Title    string
	Body     template.HTML
	Warnings []string // problems with the data itself (incomplete runs, missing files), not findings
}

//go:embed templates/*.tmpl
var templateFS embed.FS

var templates = template.Must(template.New("").Funcs(funcs).ParseFS(templateFS, "templates/*.tmpl"))

func render(name string, data any) (template.HTML, error) {
	var b bytes.Buffer
	if err := templates.ExecuteTemplate(&b, name, data); err != nil {
		return "", err
	}
	// The template output is html/template-escaped, so it is safe to embed as is.
	return template.HTML(b.String()), nil
}

// linker builds relative links into out/ so the report works from file:// and when the out/
// folder is copied elsewhere; it links only files that exist, since a dead link on a local
// page is worse than none.
type linker struct {
	outDir, relOut string
}

func newLinker(outDir, relOut string) linker {
	if relOut != "" && !strings.HasSuffix(relOut, "/") {
		relOut += "/"
	}
	return linker{outDir, relOut}
}

// href returns the link to out/<rel> (slash-separated), or "" when the file is missing.
func (l linker) href(rel string) string {
	if _, err := os.Stat(filepath.Join(l.outDir, filepath.FromSlash(rel))); err != nil {
		return ""
	}
	parts := strings.Split(path.Clean(rel), "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return l.relOut + strings.Join(parts, "/")
}
