package report

import (
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Evidence is one file of a cell's folder, linked from its page.
type Evidence struct {
	Class string // pcapng, pcap, qlog, keylog, log, sim, rerun
	Name  string // its path inside the folder
	Href  string // relative from the cell page to the file in out/
	Size  int64
	Note  string
}

// FolderEvidence is what one folder of a cell (the cell's own, or a repetition's) holds.
type FolderEvidence struct {
	Title string // what the folder is: the cell's, a repetition's
	Href  string // the folder itself ("" for files the report made)
	Files []Evidence
}

// Folders that are not evidence of the verdict: the served and downloaded files (megabytes of
// random bytes) and the certificates.
var skipDirs = map[string]bool{"www": true, "downloads": true, "certs": true}

// maxFiles bounds the links per folder (a 50-connection case writes a qlog per connection and
// side; a page stays small).
const maxFiles = 400

// maxPageFiles bounds the links on one cell page, over all its folders.
const maxPageFiles = 2000

// classify names what kind of evidence a file is, by its name.
func classify(rel string) string {
	base := strings.ToLower(filepath.Base(rel))
	switch {
	case strings.HasSuffix(base, ".pcapng"):
		return "pcapng"
	case strings.HasSuffix(base, ".pcap"):
		return "pcap"
	case strings.HasSuffix(base, ".qlog"), strings.HasSuffix(base, ".sqlog"),
		strings.Contains(filepath.ToSlash(rel), "qlog/") && strings.HasSuffix(base, ".json"):
		return "qlog"
	case base == "keys.log" || strings.Contains(base, "keylog"):
		return "keylog"
	case base == "rerun.sh":
		return "rerun"
	case strings.HasPrefix(filepath.ToSlash(rel), "sim/") && strings.HasSuffix(base, ".json"):
		return "sim"
	}
	return "log"
}

// classOrder is the order the page lists evidence in.
var classOrder = map[string]int{"pcapng": 0, "pcap": 1, "qlog": 2, "log": 3, "keylog": 4, "sim": 5, "rerun": 6}

// scanFolder lists a folder's evidence; repetition folders inside it are left to their own
// listing (skip). out is out/, so links are relative from a cell page to out/.
func scanFolder(out, dir string, skip map[string]bool) FolderEvidence {
	fe := FolderEvidence{Href: hrefFromPage(out, dir) + "/"}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			if p != dir && (skipDirs[d.Name()] || skip[p]) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || len(fe.Files) >= maxFiles {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		e := Evidence{Class: classify(rel), Name: filepath.ToSlash(rel), Href: hrefFromPage(out, p), Size: info.Size()}
		if e.Class == "pcapng" {
			e.Note = "decrypted: the TLS secrets are embedded"
		}
		fe.Files = append(fe.Files, e)
		return nil
	})
	sort.SliceStable(fe.Files, func(a, b int) bool {
		if ca, cb := classOrder[fe.Files[a].Class], classOrder[fe.Files[b].Class]; ca != cb {
			return ca < cb
		}
		return fe.Files[a].Name < fe.Files[b].Name
	})
	return fe
}

// cellEvidence lists every folder of a cell with its files.
func cellEvidence(out string, c *Cell) []FolderEvidence {
	folders := c.folders()
	skip := map[string]bool{}
	for _, f := range folders[min(1, len(folders)):] {
		skip[f] = true
	}
	var list []FolderEvidence
	listed := 0
	for i, f := range folders {
		title := "cell folder"
		if i > 0 {
			title = "repetition " + filepath.Base(f)
		}
		if listed >= maxPageFiles { // --repeat 1000: the folders, not every file of each
			list = append(list, FolderEvidence{Title: title + " (files not listed: the page lists " + fmt.Sprint(maxPageFiles) + " at most)",
				Href: hrefFromPage(out, f) + "/"})
			continue
		}
		fe := scanFolder(out, f, skip)
		fe.Title = title
		if len(fe.Files) > 0 {
			list = append(list, fe)
			listed += len(fe.Files)
		}
	}
	return list
}

// hrefFromPage is the relative link from a cell page (report/cells/<suite>/<run>/) to path,
// which lies in out/: relToOut, then path's place under out/, each segment escaped. Never an
// absolute path: the report works from file:// and from any server rooted at out/ ("" for a
// path outside out/, which the runs under out/ never have).
func hrefFromPage(out, path string) string {
	rel, err := relUnder(out, path)
	if err != nil {
		return ""
	}
	return relToOut + escapePath(rel)
}

// relUnder is path relative to out (slash-separated), both made absolute first.
func relUnder(out, path string) (string, error) {
	ao, err := filepath.Abs(out)
	if err != nil {
		return "", err
	}
	ap, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(ao, ap)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", os.ErrNotExist
	}
	return filepath.ToSlash(rel), nil
}

// escapePath escapes each segment of a slash path for an href.
func escapePath(rel string) string {
	parts := strings.Split(rel, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}
