package images

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/docker"
	"github.com/wirelab/wirelab/internal/manifest"
)

// Builder builds images in the order it is given (see manifest.BuildOrder).
type Builder struct {
	Docker   *docker.CLI
	Root     string    // repository root (the Go module) for build.go packages
	Out      string    // output root; logs go to <Out>/images/<name>.log
	Progress io.Writer // one line per image
	// HostNetwork builds with --network host from the start. Builder switches to it by itself when
	// a build fails because RUN steps cannot reach the package archive over docker's bridge.
	HostNetwork bool
}

// archiveUnreachable matches apt's complaints when a build container has no route or DNS.
var archiveUnreachable = regexp.MustCompile(`Temporary failure resolving|Could not resolve|Failed to fetch|Unable to connect to|Network is unreachable|Connection timed out`)

// Build builds each manifest's image and records it in the inventory as it goes.
func (b *Builder) Build(ctx context.Context, order []*manifest.Manifest) error {
	inv, err := LoadInventory(b.Out)
	if err != nil {
		return err
	}
	for _, m := range order {
		e, err := b.buildOne(ctx, m)
		if err != nil {
			return err
		}
		inv.Images[m.Name] = e
		if err := inv.Save(b.Out); err != nil {
			return err
		}
	}
	return nil
}

func (b *Builder) buildOne(ctx context.Context, m *manifest.Manifest) (Entry, error) {
	start := time.Now()
	logPath := filepath.Join(b.Out, "images", m.Name+".log")
	if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
		return Entry{}, err
	}
	logf, err := os.Create(logPath)
	if err != nil {
		return Entry{}, err
	}
	defer logf.Close()

	if m.Build.Prepare != "" {
		cmd := exec.CommandContext(ctx, "bash", filepath.Join(m.Dir, m.Build.Prepare))
		cmd.Env = append(os.Environ(), "WIRELAB_OUT="+b.Out)
		cmd.Stdout, cmd.Stderr = io.MultiWriter(logf, b.Progress), io.MultiWriter(logf, b.Progress)
		if err := cmd.Run(); err != nil {
			return Entry{}, fmt.Errorf("%s: build.prepare %s failed (%v); log: %s", m.File, m.Build.Prepare, err, logPath)
		}
	}
	for _, pkg := range m.Build.Go {
		if err := b.goBuild(ctx, m, pkg, logf); err != nil {
			return Entry{}, err
		}
	}
	before := b.imageID(ctx, m.Ref())
	if err := b.dockerBuild(ctx, m, logf); err != nil {
		if ctx.Err() == nil && !b.HostNetwork && logHas(logPath, archiveUnreachable) {
			fmt.Fprintf(b.Progress, "images: %s: RUN steps cannot reach the package archive over docker's bridge; retrying with --network host\n", m.Name)
			b.HostNetwork = true
			err = b.dockerBuild(ctx, m, logf)
		}
		if err != nil {
			return Entry{}, fmt.Errorf("building %s failed: %v; log: %s", m.Ref(), err, logPath)
		}
	}
	e := Entry{
		Name: m.Name, Ref: m.Ref(), ID: b.imageID(ctx, m.Ref()), Status: "built",
		Version: m.Implementation.Version, BuildNetwork: "default", BuiltAt: time.Now().UTC().Format(time.RFC3339),
	}
	if e.ID == before {
		e.Status = "up to date"
	}
	if b.HostNetwork {
		e.BuildNetwork = "host"
	}
	e.BaseSource, _ = b.Docker.Run(ctx, "image", "inspect", "-f", `{{index .Config.Labels "wirelab.base.source"}}`, m.Ref())
	if len(m.Build.VersionCmd) > 0 {
		args := append([]string{"run", "--rm", "--network", "none", "--entrypoint", m.Build.VersionCmd[0], m.Ref()}, m.Build.VersionCmd[1:]...)
		v, err := b.Docker.Run(ctx, args...)
		if err != nil {
			return Entry{}, fmt.Errorf("%s: build.version_cmd: %v", m.File, err)
		}
		e.DetectedVersion = strings.Join(docker.Lines(v), " ")
	}
	e.Seconds = time.Since(start).Round(100 * time.Millisecond).Seconds()
	fmt.Fprintf(b.Progress, "images: %-10s %-10s %6.1fs  %s %s %s\n", m.Name, e.Status, e.Seconds, m.Ref(), shortID(e.ID), e.DetectedVersion)
	return e, nil
}

// goBuild compiles a static, reproducible binary into the image's context (<Dir>/.build/), so an
// unchanged program leaves docker's COPY layer cached.
func (b *Builder) goBuild(ctx context.Context, m *manifest.Manifest, pkg string, log io.Writer) error {
	out := filepath.Join(m.Dir, ".build", filepath.Base(pkg))
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", out, pkg)
	cmd.Dir = b.Root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux")
	cmd.Stdout, cmd.Stderr = log, log
	fmt.Fprintf(log, "$ %s\n", strings.Join(cmd.Args, " "))
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: build.go %s: %v (log: %s)", m.File, pkg, err, filepath.Join(b.Out, "images", m.Name+".log"))
	}
	return nil
}

func (b *Builder) dockerBuild(ctx context.Context, m *manifest.Manifest, log io.Writer) error {
	// --force-rm: a failing RUN step otherwise leaves its stopped container behind.
	args := []string{"build", "--force-rm", "-t", m.Ref(), "-f", m.DockerfilePath(),
		"--label", "wirelab.image=" + m.Name, "--label", "wirelab.version=" + m.Implementation.Version}
	if b.HostNetwork {
		args = append(args, "--network", "host")
	}
	args = append(args, m.ContextDir())
	fmt.Fprintf(log, "$ docker %s\n", strings.Join(args, " "))
	return b.Docker.RunTo(ctx, log, args...)
}

func (b *Builder) imageID(ctx context.Context, ref string) string {
	id, err := b.Docker.Run(ctx, "image", "inspect", "-f", "{{.Id}}", ref)
	if err != nil {
		return ""
	}
	return id
}

func logHas(path string, re *regexp.Regexp) bool {
	data, err := os.ReadFile(path)
	return err == nil && re.Match(data)
}

func shortID(id string) string {
	id = strings.TrimPrefix(id, "sha256:")
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
