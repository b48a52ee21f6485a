package main

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The dashboard in a real browser (Debian's chromium, headless, through chromedp) over a report
// of a small real run with a failed cell: the matrices render, the failed cell links to its page,
// whose pcapng link resolves to the file; the filters hide what they should; no console errors.
// Screenshots go to out/screenshots/.
func TestIntegrationReportInChromium(t *testing.T) {
	bin := integration(t)
	browser, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("chromium not installed (make test installs it: WIRELAB_BROWSER=1 bash ci/install-deps.sh)")
	}
	id, out := runID(t, "it-report"), t.TempDir()
	tag := "wirelab-it/liar:" + id
	if b, err := exec.Command("docker", "build", "-q", "-t", tag, "testdata/liar-endpoint").CombinedOutput(); err != nil {
		t.Fatalf("build: %v %s", err, b)
	}
	defer exec.Command("docker", "rmi", "-f", tag).Run()
	code, log := wirelab(t, bin, "quic", "--run-id", id, "--out", out, "--seed", "7", "-j", "2", "--image", "liar="+tag+":client",
		"--clients", "liar,quic-go", "--servers", "quic-go", "--tests", "handshake,transfer")
	assertNothingLeft(t, id)
	if code != 1 {
		t.Fatalf("quic: exit %d, want 1 (the liar's handshake fails)\n%s", code, log)
	}
	if code, log := wirelab(t, bin, "report", "--out", out); code != 0 {
		t.Fatalf("report: exit %d\n%s", code, log)
	}
	index := filepath.Join(out, "report", "index.html")
	shots := filepath.Join("..", "..", "out", "screenshots")
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := browserContext(t, browser)
	defer cancel()
	var mu sync.Mutex
	var consoleErrors []string
	must(t, chromedp.Do(ctx)) // the browser and its tab, so the console subscription sees everything
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				mu.Lock()
				consoleErrors = append(consoleErrors, m.String()+" "+m.URL)
				mu.Unlock()
			}
		}
	}()

	cellSel := `td.cell.failed[data-client="liar"][data-case="handshake"] a`
	must(t, chromedp.Do(ctx, chromedp.Navigate("file://"+index), chromedp.WaitVisible(chromedp.CSS(`table.matrix[data-suite="quic"]`))))
	cells := run(t, ctx, chromedp.Evaluate[string](`[...document.querySelectorAll('td.cell')].map(c => c.dataset.client+'|'+c.dataset.case+'|'+c.className).sort().join(';')`))
	failedHref := run(t, ctx, chromedp.AttributeValue(chromedp.CSS(cellSel), "href")).Value
	must(t, os.WriteFile(filepath.Join(shots, "report-index.png"), run(t, ctx, chromedp.FullScreenshot(100)), 0o644))
	for _, want := range []string{"liar|handshake|cell failed", "liar|transfer|cell unsupported", "quic-go|handshake|cell succeeded", "quic-go|transfer|cell succeeded"} {
		if !strings.Contains(cells, want) {
			t.Errorf("matrix cells %q lack %q", cells, want)
		}
	}

	visible := chromedp.Evaluate[int](`[...document.querySelectorAll('td.cell')].filter(c => c.offsetParent !== null).length`)
	// set sets a control's value as a user's choice does: the value, then the event (chromedp's
	// SetValue cannot set "").
	set := func(id, value, event string) chromedp.Action[chromedp.Void] {
		return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
			_, err := chromedp.Evaluate[bool](`(e => { e.value = '`+value+`'; return e.dispatchEvent(new Event('`+event+`')) })(document.getElementById('`+id+`'))`)(ctx, tg)
			return chromedp.Void{}, err
		}
	}
	must(t, chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#filter-impl"), "liar")))
	nImpl := run(t, ctx, visible)
	must(t, chromedp.Do(ctx, set("filter-impl", "", "input"), set("filter-case", "handshake", "change")))
	nCase := run(t, ctx, visible)
	must(t, chromedp.Do(ctx, set("filter-case", "", "change")))
	nAll := run(t, ctx, visible)
	if nImpl != 2 || nCase != 2 || nAll != 4 {
		t.Errorf("visible cells: filter liar %d (want 2), case handshake %d (want 2), no filter %d (want 4)", nImpl, nCase, nAll)
	}

	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(cellSel)), chromedp.WaitVisible(chromedp.CSS(`p.verdict`))))
	verdict := run(t, ctx, chromedp.Text(chromedp.CSS(`p.verdict`)))
	rerun := run(t, ctx, chromedp.Text(chromedp.CSS(`pre.rerun`)))
	pcapng := run(t, ctx, chromedp.AttributeValue(chromedp.CSS(`a.pcapng`), "href")).Value
	pageURL := run(t, ctx, chromedp.Location())
	must(t, os.WriteFile(filepath.Join(shots, "report-cell.png"), run(t, ctx, chromedp.FullScreenshot(100)), 0o644))
	if !strings.Contains(verdict, "files") {
		t.Errorf("failed cell's verdict %q lacks its reason", verdict)
	}
	if !strings.Contains(rerun, "wirelab quic") || !strings.Contains(rerun, "--clients liar") {
		t.Errorf("rerun %q", rerun)
	}
	if file := resolveFileLink(t, pageURL, pcapng); !strings.HasSuffix(file, ".pcapng") {
		t.Errorf("pcapng link %q", pcapng)
	} else if st, err := os.Stat(file); err != nil || st.Size() == 0 {
		t.Errorf("pcapng link %q resolves to %s: %v", pcapng, file, err)
	}
	if strings.HasPrefix(failedHref, "/") || strings.HasPrefix(pcapng, "/") || strings.HasPrefix(pcapng, "file:") {
		t.Errorf("links must be relative: %q %q", failedHref, pcapng)
	}
	time.Sleep(300 * time.Millisecond) // late console messages
	mu.Lock()
	defer mu.Unlock()
	if len(consoleErrors) > 0 {
		t.Errorf("console errors: %v", consoleErrors)
	}
}

// run runs one browser action and returns its value; an error ends the test.
func run[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// browserContext starts headless chromium (no sandbox: CI runs as root) with a time limit.
func browserContext(t *testing.T, browser string) (context.Context, context.CancelFunc) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(1400, 1000))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx, chromedp.WithErrorf(t.Logf))
	ctx, cancelC := context.WithTimeout(ctx, 2*time.Minute)
	return ctx, func() { cancelC(); cancelB(); cancelA() }
}

// resolveFileLink is the file a relative link on the file:// page at pageURL points to.
func resolveFileLink(t *testing.T, pageURL, href string) string {
	base, err := url.Parse(pageURL)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := url.Parse(href)
	if err != nil {
		t.Fatalf("link %q: %v", href, err)
	}
	return base.ResolveReference(ref).Path
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
