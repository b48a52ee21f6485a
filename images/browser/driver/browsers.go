package main

import (
	"cmp"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// browser launches one browser headless on the page.
type browser struct {
	start func(url string, cert *x509.Certificate, o launch) (*process, error)
	// benchLog is where a bench download's own log goes (under /logs, by the download's number)
	// and the bench.jsonl field naming the file the lab reads its times from.
	benchLog func(n int, line *benchLine) (launchAs string)
}

// launch is what a browser run is for: the suite (webtransport, quic, bench), the file its own
// log goes to (Chromium's NetLog, Firefox's MOZ_LOG_FILE; empty: the browser's usual file in
// /logs), and for a bench download the protocol the browser must use (h2, h3).
type launch struct {
	suite, log, protocol string
}

var browsers = map[string]browser{
	"chromium": {start: startChromium, benchLog: func(n int, line *benchLine) string {
		line.NetLog = fmt.Sprintf("netlog-bench-%d.json", n)
		return "/logs/" + line.NetLog
	}},
	// MOZ_LOG_FILE=x: the parent process, where the HTTP stack runs, writes x.moz_log.
	"firefox": {start: startFirefox, benchLog: func(n int, line *benchLine) string {
		name := fmt.Sprintf("firefox-bench-%d.log", n)
		line.MozLog = name + ".moz_log"
		return "/logs/" + name
	}},
}

// startChromium: Google's QUIC stack. The key log and the NetLog (every QUIC frame event,
// headers included, no payload bytes) go to /logs.
//
// For the QUIC suite and the bench the page fetches the server's files from another origin,
// whose answers carry no CORS headers: the page may read them only with the same-origin policy
// off (--disable-web-security, which needs the own profile given); the HTTP/3 stack is
// unchanged. A bench download over h2 has QUIC off (no Alt-Svc upgrade either), over h3 the
// origin is forced onto QUIC as in the QUIC suite.
func startChromium(url string, cert *x509.Certificate, o launch) (*process, error) {
	profile, err := os.MkdirTemp("", "chromium-profile-")
	if err != nil {
		return nil, err
	}
	spki := sha256.Sum256(cert.RawSubjectPublicKeyInfo)
	args := []string{
		"--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
		"--user-data-dir=" + profile,
		"--no-first-run", "--no-default-browser-check", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--metrics-recording-only",
		// Beside serverCertificateHashes: should Chromium verify the chain as well, the pin on
		// the server's key lets the lab's CA-less certificate through.
		"--ignore-certificate-errors-spki-list=" + base64.StdEncoding.EncodeToString(spki[:]),
		"--ssl-key-log-file=" + keyLog(),
		"--log-net-log=" + cmp.Or(o.log, "/logs/netlog.json"), "--net-log-capture-mode=IncludeSensitive",
		"--enable-logging=stderr", "--v=0",
	}
	if o.protocol == "h2" {
		args = append(args, "--disable-quic")
	} else {
		args = append(args, "--enable-quic", "--origin-to-force-quic-on=server4:443")
	}
	if o.suite != "webtransport" {
		args = append(args, "--disable-web-security")
	}
	args = append(args, url)
	cmd := exec.Command("chromium", args...)
	cmd.Env = append(os.Environ(), "SSLKEYLOGFILE="+keyLog())
	return startProcess(cmd, "/logs/chromium.log")
}

// firefoxPrefs make a fresh profile quiet (no first-run pages, no calls home over the lab's
// network) and turn on HTTP/3, WebTransport and neqo's qlog. (Firefox 153 has no datagram pref
// any more: network.webtransport.datagrams.enabled is gone, datagrams are always on.)
var firefoxPrefs = map[string]any{
	"network.http.http3.enable":      true,
	"network.webtransport.enabled":   true,
	"network.http.http3.enable_qlog": true,
	// No speculative connection: the WebTransport channel opens one to the origin before its
	// own, and as WebTransport sessions are not pooled that is a second QUIC connection (the
	// contract wants one).
	"network.http.speculative-parallel-limit":                 0,
	"network.http.http3.disable_when_third_party_roots_found": false,
	"network.trr.mode":                           5,
	"network.proxy.type":                         0,
	"network.captive-portal-service.enabled":     false,
	"network.connectivity-service.enabled":       false,
	"network.dns.disablePrefetch":                true,
	"network.prefetch-next":                      false,
	"browser.shell.checkDefaultBrowser":          false,
	"browser.startup.homepage_override.mstone":   "ignore",
	"browser.aboutwelcome.enabled":               false,
	"browser.safebrowsing.malware.enabled":       false,
	"browser.safebrowsing.phishing.enabled":      false,
	"browser.safebrowsing.downloads.enabled":     false,
	"datareporting.policy.dataSubmissionEnabled": false,
	"datareporting.healthreport.uploadEnabled":   false,
	"toolkit.telemetry.reportingpolicy.firstRun": false,
	"app.update.auto":                            false,
	"extensions.update.enabled":                  false,
	"dom.push.connection.enabled":                false,
	// The page's console (CORS and network errors) goes to the browser's log.
	"devtools.console.stdout.content": true,
	// Calls home a fresh profile makes (seen in its HTTP log): the region lookup, remote
	// settings (an ESR honours its server pref only with MOZ_REMOTE_SETTINGS_DEVTOOLS=1 in the
	// environment), the new tab's sponsored tiles, the telemetry deletion ping that turning
	// uploads off sends, the usage-reporting ping and Normandy's studies. Dead ends, as
	// Mozilla's own test profiles have them.
	"browser.region.network.url":                                  "",
	"browser.region.update.enabled":                               false,
	"services.settings.server":                                    "data:,#remote-settings-dummy/v1",
	"app.normandy.enabled":                                        false,
	"app.normandy.api_url":                                        "",
	"datareporting.usage.uploadEnabled":                           false,
	"toolkit.telemetry.server":                                    "http://127.0.0.1:1/telemetry-dummy",
	"browser.startup.page":                                        0,
	"browser.newtabpage.enabled":                                  false,
	"browser.newtabpage.activity-stream.feeds.topsites":           false,
	"browser.newtabpage.activity-stream.feeds.section.topstories": false,
	"browser.newtabpage.activity-stream.showSponsored":            false,
	"browser.newtabpage.activity-stream.showSponsoredTopSites":    false,
}

// startFirefox: Mozilla's neqo stack over NSS, which writes SSLKEYLOGFILE itself. MOZ_LOG
// keeps the HTTP/3 and WebTransport log in /logs (o.log names its file; Firefox adds
// .moz_log). The WebTransport page runs in a tab; the QUIC suite's and the bench's scripts run
// as an extension's background page (extension.go says why), over a profile that trusts the
// lab's CA, with the server's origin mapped onto HTTP/3 (the QUIC suite, a bench download over
// h3) or HTTP/3 off (a bench download over h2).
func startFirefox(url string, _ *x509.Certificate, o launch) (*process, error) {
	profile, err := os.MkdirTemp("", "firefox-profile-")
	if err != nil {
		return nil, err
	}
	prefs := maps.Clone(firefoxPrefs)
	args := []string{"--headless", "--no-remote", "--profile", profile}
	if o.suite == "webtransport" {
		args = append(args, url)
	} else {
		if err := writeExtension(profile, url); err != nil {
			return nil, err
		}
		if err := trustLabCA(profile, "/certs/ca.pem"); err != nil {
			return nil, err
		}
		maps.Copy(prefs, extensionPrefs)
		if o.protocol == "h2" {
			prefs["network.http.http3.enable"] = false
		} else {
			maps.Copy(prefs, firefoxForceH3)
		}
		args = append(args, "about:blank")
	}
	// sync: Firefox writes its log through a buffer it does not flush when stopped by a signal
	// (nor, with fast shutdown, on exit), so the last lines (a download's end) would be lost.
	modules := "sync,timestamp,nsHttp:4,WebTransport:5,neqo_http3::*:4,neqo_transport::*:3"
	switch o.suite {
	case "bench":
		// only what the times are read from: a qlog or neqo's log costs CPU per packet, which
		// h2 would not pay
		modules = "sync,timestamp,nsHttp:4"
		prefs["network.http.http3.enable_qlog"] = false
	case "quic":
		// requests, responses and connections; the packets are in the qlog (multiplexing's
		// 2000 downloads wrote 115 MB of log at the WebTransport suite's levels)
		modules = "sync,timestamp,nsHttp:3"
	}
	if err := writeUserJS(profile, prefs); err != nil {
		return nil, err
	}
	// neqo writes its qlog into the temporary folder (qlog_*): a folder of its own inside
	// QLOGDIR (so that a rename moves it), its qlogs moved up and the rest removed when Firefox
	// is gone.
	if err := os.MkdirAll(qlogDir(), 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(qlogDir(), ".firefox-tmp-")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("firefox-esr", args...)
	cmd.Env = append(os.Environ(), "SSLKEYLOGFILE="+keyLog(), "TMPDIR="+tmp, "MOZ_REMOTE_SETTINGS_DEVTOOLS=1",
		"MOZ_LOG="+modules,
		"MOZ_LOG_FILE="+cmp.Or(o.log, "/logs/firefox-http.log"))
	p, err := startProcess(cmd, "/logs/firefox.log")
	if err != nil {
		return nil, err
	}
	p.collect = func() { moveQlogs(tmp, qlogDir()) }
	return p, nil
}

// firefoxForceH3 makes Firefox reach the lab's server over HTTP/3 from the first request, as if
// it had announced Alt-Svc h3 on 443, and keeps it there: no TCP connection raced beside a
// handshake that takes longer than the backup timer (a slow profile would win it for h2).
var firefoxForceH3 = map[string]any{
	"network.http.http3.alt-svc-mapping-for-testing": "server4;h3=:443",
	"network.http.http3.backup_timer_delay":          600000,
}

// writeUserJS writes the profile's prefs.
func writeUserJS(profile string, prefs map[string]any) error {
	var userJS strings.Builder
	for _, k := range slices.Sorted(maps.Keys(prefs)) {
		v := prefs[k]
		if s, ok := v.(string); ok {
			v = fmt.Sprintf("%q", s)
		}
		fmt.Fprintf(&userJS, "user_pref(%q, %v);\n", k, v)
	}
	return os.WriteFile(filepath.Join(profile, "user.js"), []byte(userJS.String()), 0o644)
}

// trustLabCA makes the profile's certificate database trust the lab's CA for servers (NSS's
// certutil): Firefox then verifies the server's chain as for any site.
func trustLabCA(profile, ca string) error {
	if out, err := exec.Command("certutil", "-N", "-d", "sql:"+profile, "--empty-password").CombinedOutput(); err != nil {
		return fmt.Errorf("certutil: a database in %s: %v: %s", profile, err, strings.TrimSpace(string(out)))
	}
	out, err := exec.Command("certutil", "-A", "-d", "sql:"+profile, "-n", "wirelab lab CA", "-t", "C,,", "-i", ca).CombinedOutput()
	if err != nil {
		return fmt.Errorf("certutil: trusting %s: %v: %s", ca, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// moveQlogs moves neqo's qlog_* folders from tmp into dir and removes tmp.
func moveQlogs(tmp, dir string) {
	defer os.RemoveAll(tmp)
	found, _ := filepath.Glob(filepath.Join(tmp, "qlog_*"))
	for _, f := range found {
		if err := os.Rename(f, filepath.Join(dir, filepath.Base(f))); err != nil {
			fmt.Printf("driver: qlog: %v\n", err)
		}
	}
}

func qlogDir() string {
	if d := os.Getenv("QLOGDIR"); d != "" {
		return d
	}
	return "/logs/qlog"
}

// keyLog is the contract's SSLKEYLOGFILE (the lab decrypts the trace with it).
func keyLog() string {
	if f := os.Getenv("SSLKEYLOGFILE"); f != "" {
		return f
	}
	return "/logs/keys.log"
}
