package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/wirelab/wirelab/internal/images"
)

// listRow is one image as `wirelab list --json` prints it.
type listRow struct {
	Name            string              `json:"name"`
	Image           string              `json:"image"`
	Implementation  string              `json:"implementation"`
	Version         string              `json:"version"`
	Source          string              `json:"source,omitempty"`
	Roles           map[string][]string `json:"roles"`
	Testcases       map[string][]string `json:"testcases,omitempty"`
	Built           bool                `json:"built"`
	DetectedVersion string              `json:"detected_version,omitempty"`
	Manifest        string              `json:"manifest"`
}

func runList(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "list", "")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	suite := fs.String("suite", "", "only images with a role in this `suite` (quic, h2, grpcweb, tool)")
	out := fs.String("out", filepath.Join(e.root, "out"), "output `dir` holding images/inventory.json")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badInputf("unexpected argument %q", fs.Arg(0))
	}
	ms, err := e.manifests()
	if err != nil {
		return err
	}
	inv, err := images.LoadInventory(*out)
	if err != nil {
		return badInputf("%s: %v", images.InventoryPath(*out), err)
	}
	built := builtRefs(ctx, e)
	var rows []listRow
	for _, m := range ms {
		if *suite != "" && len(m.Roles[*suite]) == 0 {
			continue
		}
		rel, _ := filepath.Rel(e.root, m.File)
		rows = append(rows, listRow{
			Name: m.Name, Image: m.Ref(), Implementation: m.Implementation.Name, Version: m.Implementation.Version,
			Source: m.Implementation.Source, Roles: m.Roles, Testcases: m.Testcases, Built: built[m.Ref()],
			DetectedVersion: inv.Images[m.Name].DetectedVersion, Manifest: rel,
		})
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tIMAGE\tIMPLEMENTATION\tVERSION\tROLES\tBUILT")
	for _, r := range rows {
		version := r.Version
		if r.DetectedVersion != "" && r.DetectedVersion != r.Version {
			version += " (image: " + r.DetectedVersion + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Name, r.Image, r.Implementation, version, formatRoles(r.Roles), yesNo(r.Built))
	}
	return tw.Flush()
}

// builtRefs asks docker which wirelab images exist; with no engine every image shows as not built.
func builtRefs(ctx context.Context, e *env) map[string]bool {
	refs := map[string]bool{}
	out, err := e.docker.Run(ctx, "image", "ls", "--format", "{{.Repository}}:{{.Tag}}")
	if err != nil {
		return refs
	}
	for _, l := range strings.Fields(out) {
		refs[l] = true
	}
	return refs
}

func formatRoles(roles map[string][]string) string {
	var parts []string
	for suite, rs := range roles {
		parts = append(parts, suite+":"+strings.Join(rs, "/"))
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
