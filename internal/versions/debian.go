package versions

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/docker"
	"github.com/wirelab/wirelab/internal/run"
)

// aptScript runs in a throwaway container of the base image, so the answer is what apt in an
// image build would see (same sources, same mirror): refresh the indexes (failing on any fetch
// error), then list every version of each package with the suite serving it. $1 names a
// backports suite to add (deb and deb-src, on the mirror the base already uses), if not empty.
const aptScript = `set -eu
if [ -n "$1" ]; then
  uri=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources)
  printf 'Types: deb deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.pgp\n' \
    "$uri" "$1" >/etc/apt/sources.list.d/wirelab-versions.sources
fi
shift
apt-get update -qq -o APT::Update::Error-Mode=any >/dev/null
apt-cache madison "$@"
`

// madisonEntry is one line of apt-cache madison: a version of a binary or source package.
type madisonEntry struct{ pkg, version, suite string }

// parseMadison reads apt-cache madison's "pkg | version | URI suite/component [arch] Packages"
// lines; lines of another shape (apt's notes) are skipped.
func parseMadison(out string) []madisonEntry {
	var es []madisonEntry
	for _, l := range strings.Split(out, "\n") {
		f := strings.Split(l, "|")
		if len(f) != 3 {
			continue
		}
		src := strings.Fields(f[2])
		if len(src) < 2 || !strings.Contains(src[1], "/") {
			continue
		}
		es = append(es, madisonEntry{
			pkg:     strings.TrimSpace(f[0]),
			version: strings.TrimSpace(f[1]),
			suite:   src[1][:strings.IndexByte(src[1], '/')],
		})
	}
	return es
}

// newestDebian picks pkg's highest version; trixie-backports counts only when backports is set.
func newestDebian(es []madisonEntry, pkg string, backports bool) (version, suite string) {
	for _, e := range es {
		if e.pkg != pkg || e.suite == debianBackports && !backports {
			continue
		}
		if version == "" || debCompare(e.version, version) > 0 {
			version, suite = e.version, e.suite
		}
	}
	return version, suite
}

// fillDebian asks the archive through apt in a labelled throwaway container of baseImage and
// fills the Debian rows. The container is removed by label afterwards, also when ctx ends.
func fillDebian(ctx context.Context, d *docker.CLI, baseImage string, rows []Row) error {
	pkgs := packagesFor(rows, RegistryDebian)
	if len(pkgs) == 0 {
		return nil
	}
	if err := d.CheckEngine(ctx); err != nil {
		return err
	}
	if _, err := d.Run(ctx, "image", "inspect", "--format", "{{.Id}}", baseImage); err != nil {
		return &docker.EnvError{Msg: fmt.Sprintf("%s is not built (make images IMAGES=base)", baseImage)}
	}
	// Backports are always listed: they count for a pinned backport and are noted for the rest.
	backports := debianBackports
	id := run.NewID(time.Now())
	defer func() {
		_, _ = d.RemoveLabelled(context.Background(), docker.RunSelector(id))
	}()
	out, err := aptMadison(ctx, d, id, baseImage, "", backports, pkgs)
	if err != nil && ctx.Err() == nil {
		// As `wirelab images` does: where docker's bridge cannot reach the archive, the host can.
		out, err = aptMadison(ctx, d, id, baseImage, "host", backports, pkgs)
	}
	if err != nil {
		return &docker.EnvError{Msg: "asking Debian's archive: " + err.Error()}
	}
	es := parseMadison(out)
	for i := range rows {
		r := &rows[i]
		if r.Registry != RegistryDebian {
			continue
		}
		r.Newest, r.Where = newestDebian(es, r.Package, wantsBackports(r.Pinned))
		if r.Newest == "" {
			r.Status, r.Note = StatusUnknown, "not served by the archive"
			continue
		}
		r.Status, r.Note = debianStatus(r.Pinned, r.Newest)
		if bpo, _ := newestDebian(es, r.Package, true); !wantsBackports(r.Pinned) && debCompare(bpo, r.Newest) > 0 {
			r.Note = join(r.Note, debianBackports+" has "+bpo)
		}
	}
	return nil
}

func aptMadison(ctx context.Context, d *docker.CLI, id, image, network, backports string, pkgs []string) (string, error) {
	args := []string{"run", "--rm", "--label", docker.LabelRun + "=" + id, "--label", docker.LabelSuite + "=versions"}
	if network != "" {
		args = append(args, "--network", network)
	}
	args = append(args, "--entrypoint", "bash", image, "-c", aptScript, "bash", backports)
	return d.Run(ctx, append(args, pkgs...)...)
}
