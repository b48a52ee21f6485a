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
	"sync/atomic"
	"time"

	"github.com/wirelab/wirelab/internal/docker"
	"github.com/wirelab/wirelab/internal/manifest"
)

// Builder builds images, independent ones concurrently (see schedule).
type Builder struct {
	Docker   *docker.CLI
	Root     string    // repository root (the Go module) for build.go packages
	Out      string    // output root; logs go to <Out>/images/<name>.log
	Progress io.Writer // one line per image
	Jobs     int       // builds at a time; 0: DefaultJobs
	// HostNetwork builds with --network host from the start. Builder switches to it by itself when
	// a build fails because RUN steps cannot reach the package archive over docker's bridge.
	HostNetwork bool

	hostNetwork atomic.Bool // HostNetwork, or switched on by a build that could not reach the archive
	progress    io.Writer   // Progress, one whole write at a time
}

// DefaultJobs is how many images Build builds at a time unless told: two at once beat one at a
// time here (2 cores), three did not beat two (docs/images.md).
const DefaultJobs = 2

// archiveUnreachable matches apt's complaints when a build container has no route or DNS.
var archiveUnreachable = regexp.MustCompile(`Temporary failure resolving|Could not resolve|Failed to fetch|Unable to connect to|Network is unreachable|Connection timed out`)

// Build builds the images of order (a dependency order: manifest.BuildOrder), up to Jobs at a
// time, each after the images it builds FROM, and records each in the inventory once built.
// After a failure it starts no more builds, lets the running ones finish and returns the
// failure, which names the image and its log.
func (b *Builder) Build(ctx context.Context, order []*manifest.Manifest) error {
	if _, err := LoadInventory(b.Out); err != nil { // a broken inventory stops us before any build
		return err
	}
	deps, err := manifest.Deps(order)
	if err != nil {
		return err
	}
	jobs := b.Jobs
	if jobs <= 0 {
		jobs = DefaultJobs
	}
	b.hostNetwork.Store(b.HostNetwork)
	b.progress = &syncWriter{w: b.Progress}
	if jobs > 1 && len(order) > 1 {
		fmt.Fprintf(b.progress, "images: %d to build, up to %d at a time (-j)\n", len(order), jobs)
	}
	return schedule(ctx, order, deps, jobs, func(ctx context.Context, m *manifest.Manifest) error {
		e, err := b.buildOne(ctx, m)
		if err != nil {
			if ctx.Err() == nil {
				fmt.Fprintf(b.progress, "images: %-10s failed; no more builds start\n", m.Name)
			}
			return err
		}
		return Record(b.Out, e)
	})
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
		lines := &lineWriter{w: b.progress}
		out := io.MultiWriter(logf, lines) // one writer for both: exec then calls it from one goroutine
		cmd.Stdout, cmd.Stderr = out, out
		err := cmd.Run()
		lines.Flush()
		if err != nil {
			return Entry{}, fmt.Errorf("%s: build.prepare %s failed (%v); log: %s", m.File, m.Build.Prepare, err, logPath)
		}
	}
	for _, pkg := range m.Build.Go {
		if err := b.goBuild(ctx, m, pkg, logf); err != nil {
			return Entry{}, err
		}
	}
	before := b.imageID(ctx, m.Ref())
	host := b.hostNetwork.Load()
	if err := b.dockerBuild(ctx, m, logf, host); err != nil {
		if ctx.Err() == nil && !host && logHas(logPath, archiveUnreachable) {
			fmt.Fprintf(b.progress, "images: %s: RUN steps cannot reach the package archive over docker's bridge; retrying with --network host\n", m.Name)
			b.hostNetwork.Store(true)
			host = true
			err = b.dockerBuild(ctx, m, logf, host)
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
	if host {
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
	fmt.Fprintf(b.progress, "images: %-10s %-10s %6.1fs  %s %s %s\n", m.Name, e.Status, e.Seconds, m.Ref(), shortID(e.ID), e.DetectedVersion)
	return e, nil
}

// goBuild compiles a static, reproducible binary into the image's context (<Dir>/.build/), so an
// unchanged program leaves docker's COPY layer cached.
func (b *Builder) goBuild(ctx context.Context, m *manifest.Manifest, pkg string, log io.Writer) error {
	out := filepath.Join(m.Dir, ".build", filepath.Base(pkg))
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", out, pkg)
	cmd.Dir = b.Root
	if m.Build.GoModule != "" {
		cmd.Dir = filepath.Join(m.Dir, m.Build.GoModule)
	}
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux")
	cmd.Stdout, cmd.Stderr = log, log
	fmt.Fprintf(log, "$ %s\n", strings.Join(cmd.Args, " "))
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: build.go %s: %v (log: %s)", m.File, pkg, err, filepath.Join(b.Out, "images", m.Name+".log"))
	}
	return nil
}

func (b *Builder) dockerBuild(ctx context.Context, m *manifest.Manifest, log io.Writer, hostNetwork bool) error {
	// --force-rm: a failing RUN step otherwise leaves its stopped container behind.
	args := []string{"build", "--force-rm", "-t", m.Ref(), "-f", m.DockerfilePath(),
		"--label", "wirelab.image=" + m.Name, "--label", "wirelab.version=" + m.Implementation.Version}
	if hostNetwork {
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
