package main

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// browser launches one browser headless on the page.
type browser struct {
	start func(url string, cert *x509.Certificate, o launch) (*process, error)
}

// launch is what a browser run is for: the suite (webtransport, quic, bench), the file its net
// log goes to, and for a bench download the protocol the browser must use (h2, h3).
type launch struct {
	suite, netLog, protocol string
}

var browsers = map[string]browser{
	"chromium": {start: startChromium},
	"firefox":  {start: startFirefox},
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
		"--log-net-log=" + o.netLog, "--net-log-capture-mode=IncludeSensitive",
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
}

// startFirefox: Mozilla's neqo stack over NSS, which writes SSLKEYLOGFILE itself. MOZ_LOG
// keeps the HTTP/3 and WebTransport log in /logs.
// (The WebTransport suite only: images/firefox/run_endpoint.sh says why not the QUIC suite.)
func startFirefox(url string, _ *x509.Certificate, _ launch) (*process, error) {
	profile, err := os.MkdirTemp("", "firefox-profile-")
	if err != nil {
		return nil, err
	}
	var userJS strings.Builder
	for k, v := range firefoxPrefs {
		if s, ok := v.(string); ok {
			v = fmt.Sprintf("%q", s)
		}
		fmt.Fprintf(&userJS, "user_pref(%q, %v);\n", k, v)
	}
	if err := os.WriteFile(filepath.Join(profile, "user.js"), []byte(userJS.String()), 0o644); err != nil {
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
	cmd := exec.Command("firefox-esr", "--headless", "--no-remote", "--profile", profile, url)
	cmd.Env = append(os.Environ(), "SSLKEYLOGFILE="+keyLog(), "TMPDIR="+tmp,
		"MOZ_LOG=timestamp,nsHttp:4,WebTransport:5,neqo_http3::*:4,neqo_transport::*:3",
		"MOZ_LOG_FILE=/logs/firefox-http.log")
	p, err := startProcess(cmd, "/logs/firefox.log")
	if err != nil {
		return nil, err
	}
	p.collect = func() { moveQlogs(tmp, qlogDir()) }
	return p, nil
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
