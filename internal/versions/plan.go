package versions

import (
	"path/filepath"
	"strings"

	"github.com/wirelab/wirelab/internal/manifest"
)

// Registries `wirelab versions` asks, and the status of a row.
const (
	RegistryDebian = "debian"
	RegistryGo     = "go"

	StatusUpToDate = "up-to-date"
	StatusOutdated = "OUTDATED"
	StatusUnknown  = "unknown"
	StatusLocal    = "local" // made by this repository: no registry to ask
)

// debianBackports is the suite a pinned backport (version ~bpoNN) is compared within; every
// wirelab image is built on Debian trixie (wirelab/base:trixie).
const debianBackports = "trixie-backports"

// Row is one package or module of one image, as `wirelab versions --json` prints it.
type Row struct {
	Image    string `json:"image"`
	Registry string `json:"registry,omitempty"` // debian | go; empty for local images
	Package  string `json:"package,omitempty"`  // Debian package or Go module path
	Pinned   string `json:"pinned"`
	Newest   string `json:"newest,omitempty"`
	Status   string `json:"status"`          // up-to-date | OUTDATED | unknown | local
	Where    string `json:"where,omitempty"` // Debian suite serving Newest
	Note     string `json:"note,omitempty"`

	manifest string // the manifest file, for errors
	goModule string // the folder of the go.mod the module is built from ("": the checkout's)
}

// Plan turns manifests into the rows to fill: one per Debian package or Go module, one
// "local" row for an image with neither.
func Plan(ms []*manifest.Manifest) []Row {
	var rows []Row
	for _, m := range ms {
		impl := m.Implementation
		switch {
		case impl.Module != "":
			r := Row{Image: m.Name, Registry: RegistryGo, Package: impl.Module, Pinned: impl.Version, manifest: m.File}
			if m.Build.GoModule != "" {
				r.goModule = filepath.Join(m.Dir, m.Build.GoModule)
			}
			rows = append(rows, r)
		case len(impl.Packages) > 0:
			for _, p := range impl.Packages {
				pinned, _ := impl.PinnedVersion(p) // validated when the manifest was parsed
				rows = append(rows, Row{Image: m.Name, Registry: RegistryDebian, Package: p, Pinned: pinned,
					manifest: m.File})
			}
		default:
			rows = append(rows, Row{Image: m.Name, Pinned: impl.Version, Status: StatusLocal,
				Note: "built here (no implementation.packages or module)", manifest: m.File})
		}
	}
	return rows
}

// wantsBackports says whether a pinned Debian version is a backport, so trixie-backports counts.
func wantsBackports(pinned string) bool { return strings.Contains(pinned, "~bpo") }

// packagesFor lists the distinct package names of rows in registry, in order.
func packagesFor(rows []Row, registry string) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range rows {
		if r.Registry == registry && !seen[r.Package] {
			seen[r.Package] = true
			out = append(out, r.Package)
		}
	}
	return out
}

// debianStatus compares a pinned Debian version with the newest the archive serves. A pinned
// version above everything served is no longer installable: unknown, with a note.
func debianStatus(pinned, newest string) (status, note string) {
	switch c := debCompare(pinned, newest); {
	case c < 0:
		return StatusOutdated, ""
	case c == 0:
		return StatusUpToDate, ""
	default:
		return StatusUnknown, "pinned version is newer than any the archive serves"
	}
}
