package endpoint

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// gateImage is what an image's /run_endpoint.sh implements: the TESTCASEs of each role it plays
// and, per role, the call its implementation starts with (a regexp on a stub's record).
type gateImage struct {
	fakeImage
	roles map[string][]string // role -> TESTCASEs (shell patterns: anyCase, namedCase)
	reach map[string]string   // role -> ^regexp of the implementation's call
}

// anyCase: the role takes any TESTCASE, also none (its program knows the cases, or it has none);
// namedCase: any but an empty one.
const anyCase, namedCase = "*", "?*"

var (
	quicGoClient = []string{"handshake", "transfer", "retry", "keyupdate", "chacha20", "multiconnect", "resumption", "zerortt", "http3", "ecn", "bench"}
	quicGoServer = []string{"handshake", "transfer", "retry", "chacha20", "multiconnect", "versionnegotiation", "resumption", "zerortt", "http3", "keyupdate", "ecn", "bench"}
	aioquicCases = []string{"handshake", "transfer", "retry", "chacha20", "keyupdate", "http3", "v2", "multiconnect", "resumption", "zerortt", "amplificationlimit", "bench"}
	ngtcp2Cases  = []string{"handshake", "transfer", "http3", "retry", "chacha20", "keyupdate", "resumption", "zerortt", "multiconnect", "v2", "ecn",
		"connectionmigration", "versionnegotiation", "bench"}
	curlCases    = []string{"handshake", "transfer", "http3", "retry", "chacha20", "multiconnect", "amplificationlimit", "bench"}
	haproxyCases = []string{"handshake", "transfer", "http3", "retry", "chacha20", "multiconnect", "resumption", "amplificationlimit", "v2", "h2", "bench"}
	nginxCases   = []string{"handshake", "transfer", "http3", "retry", "chacha20", "multiconnect", "resumption", "amplificationlimit", "h2", "bench"}
	// images/go-x-net/testcase.go's planFor: the program decides, the script asks it (-check).
	goXNetClient = []string{"handshake", "transfer", "retry", "keyupdate", "amplificationlimit", "multiconnect", "resumption"}
	goXNetServer = []string{"handshake", "transfer", "multiconnect", "keyupdate", "chacha20", "amplificationlimit", "retry"}
)

// gateImages are the images with a /run_endpoint.sh, as their scripts implemented the contract
// before the gate moved into the base (images/endpoint/gate.sh); TestImagesHaveGateEntries keeps
// the list complete.
var gateImages = []gateImage{
	{fakeImage: fakeImage{name: "aioquic", programs: []string{"python3"}},
		roles: map[string][]string{"client": aioquicCases, "server": aioquicCases},
		reach: map[string]string{"client": `python3 -u /opt/wirelab-aioquic/aioquic_client\.py `, "server": `python3 -u /opt/wirelab-aioquic/aioquic_server\.py`}},
	{fakeImage: fakeImage{name: "apache2", programs: []string{"apache2"},
		// Debian's apache2 package installs it; the script reads these two of it.
		etc: map[string]string{"apache2/envvars": "export APACHE_RUN_DIR=/var/run/apache2 APACHE_LOCK_DIR=/var/lock/apache2\n"}},
		roles: map[string][]string{"server": {"h2"}}, reach: map[string]string{"server": `apache2 -DFOREGROUND$`}},
	{fakeImage: fakeImage{name: "caddy", programs: []string{"caddy"}},
		roles: map[string][]string{"server": {"h2", "bench"}}, reach: map[string]string{"server": `caddy run --config /run/caddy\.json$`}},
	// The browsers without PROTOCOLS: the QUIC suite's cases (the WebTransport suite sets PROTOCOLS).
	{fakeImage: fakeImage{name: "chromium", programs: []string{"wirelab-browser-driver"}}, // from the browser base
		roles: map[string][]string{"client": {"handshake", "transfer", "http3", "multiplexing", "retry"}},
		reach: map[string]string{"client": `wirelab-browser-driver --browser chromium --suite quic$`}},
	{fakeImage: fakeImage{name: "connectconformance"},
		roles: map[string][]string{"client": {"connectconformance", ""}, "server": {anyCase}},
		reach: map[string]string{"client": `sut-forward run --connectconformance `, "server": `sut-forward serve --listen :443 `}},
	{fakeImage: fakeImage{name: "curl", programs: []string{"curl"}},
		roles: map[string][]string{"client": curlCases}, reach: map[string]string{"client": `curl --(http3-only|cacert) `}},
	{fakeImage: fakeImage{name: "endpoint"}, roles: map[string][]string{}},
	{fakeImage: fakeImage{name: "firefox", programs: []string{"wirelab-browser-driver"}}, // from the browser base
		roles: map[string][]string{"client": {"handshake", "transfer", "http3", "multiplexing", "retry"}},
		reach: map[string]string{"client": `wirelab-browser-driver --browser firefox --suite quic$`}},
	{fakeImage: fakeImage{name: "go-h2", checks: []string{"go-h2"}},
		roles: map[string][]string{"server": {"h2"}}, reach: map[string]string{"server": `go-h2$`}},
	{fakeImage: fakeImage{name: "go-x-net", checks: []string{"go-x-net"}},
		roles: map[string][]string{"client": goXNetClient, "server": goXNetServer},
		reach: map[string]string{"client": `go-x-net$`, "server": `go-x-net$`}},
	{fakeImage: fakeImage{name: "grpc-go"},
		roles: map[string][]string{"client": {namedCase}, "server": {anyCase}},
		reach: map[string]string{"client": `grpc-interop-client --server_host server4 --server_port 443 --test_case `, "server": `grpc-interop-server --port 443$`}},
	{fakeImage: fakeImage{name: "grpcweb-converter"},
		roles: map[string][]string{"edge": {anyCase}, "origin": {anyCase}},
		reach: map[string]string{"edge": `grpcweb-converter --mode edge --listen :443 --h2c --upstream `, "origin": `grpcweb-converter --mode origin --listen :80 --upstream `}},
	{fakeImage: fakeImage{name: "grpcweb-probe"},
		roles: map[string][]string{"client": {namedCase}, "server": {namedCase}, "origin": {namedCase}},
		reach: map[string]string{"client": `grpcweb-probe --role client --case `, "server": `grpcweb-probe --role server --case .* --listen :443 `,
			"origin": `grpcweb-probe --role origin --case .* --listen :80 `}},
	{fakeImage: fakeImage{name: "grpcwebproxy"},
		roles: map[string][]string{"origin": {anyCase}}, reach: map[string]string{"origin": `grpcwebproxy --backend_addr server4:443 `}},
	{fakeImage: fakeImage{name: "h2check"}, roles: map[string][]string{"client": {"h2"}}, reach: map[string]string{"client": `h2check -addr server4:443 `}},
	{fakeImage: fakeImage{name: "h2probe"}, roles: map[string][]string{"client": {"probe"}}, reach: map[string]string{"client": `h2probe -addr server4:443 `}},
	{fakeImage: fakeImage{name: "h2spec"}, roles: map[string][]string{"client": {"h2spec"}}, reach: map[string]string{"client": `h2spec --tls --insecure --host server4 `}},
	{fakeImage: fakeImage{name: "h2upload"}, roles: map[string][]string{"client": {"upload"}}, reach: map[string]string{"client": `h2upload -addr server4:443 `}},
	{fakeImage: fakeImage{name: "haproxy", programs: []string{"haproxy", "lighttpd"}},
		roles: map[string][]string{"server": haproxyCases}, reach: map[string]string{"server": `haproxy -db -f /etc/haproxy/haproxy(-h2)?\.cfg$`}},
	{fakeImage: fakeImage{name: "lighttpd", programs: []string{"lighttpd"}},
		roles: map[string][]string{"server": {"h2"}}, reach: map[string]string{"server": `lighttpd -D -f /etc/lighttpd/wirelab-h2\.conf$`}},
	{fakeImage: fakeImage{name: "nghttpd", programs: []string{"nghttpd"}},
		roles: map[string][]string{"server": {"h2"}}, reach: map[string]string{"server": `nghttpd --echo-upload -d /www 443 `}},
	{fakeImage: fakeImage{name: "nginx", programs: []string{"nginx"}},
		roles: map[string][]string{"server": nginxCases}, reach: map[string]string{"server": `nginx( -c /etc/nginx/h2\.conf)?$`}},
	{fakeImage: fakeImage{name: "ngtcp2", programs: []string{"gtlsserver", "gtlsclient"}},
		roles: map[string][]string{"client": ngtcp2Cases, "server": ngtcp2Cases},
		reach: map[string]string{"client": `(h09)?gtlsclient `, "server": `(h09)?gtlsserver `}},
	{fakeImage: fakeImage{name: "nodejs-h2", programs: []string{"node"}},
		roles: map[string][]string{"server": {"h2"}}, reach: map[string]string{"server": `node /usr/local/lib/wirelab/server\.js$`}},
	{fakeImage: fakeImage{name: "probe", programs: []string{"sleep"}},
		roles: map[string][]string{"client": {anyCase}, "server": {anyCase}},
		reach: map[string]string{"client": `sleep infinity$`, "server": `probe server -port 5201 `}},
	{fakeImage: fakeImage{name: "quicfuzz", programs: []string{"python3"}},
		roles: map[string][]string{"client": {"fuzz", "replay"}}, reach: map[string]string{"client": `python3 -u -m livefuzz /www/fuzz/config\.json$`}},
	{fakeImage: fakeImage{name: "quic-go"},
		roles: map[string][]string{"client": quicGoClient, "server": quicGoServer},
		reach: map[string]string{"client": `quic-go-interop-client `, "server": `quic-go-interop-server$`}},
	{fakeImage: fakeImage{name: "webtransport-go"},
		roles: map[string][]string{"client": {"handshake", "transfer", "transfer-unidirectional-receive", "transfer-bidirectional-receive", "transfer-datagram-receive"},
			"server": {"handshake", "transfer", "transfer-unidirectional-send", "transfer-bidirectional-send", "transfer-datagram-send"}},
		reach: map[string]string{"client": `webtransport-go-interop-client$`, "server": `webtransport-go-interop-server$`}},
	{fakeImage: fakeImage{name: "vanguard"},
		roles: map[string][]string{"origin": {anyCase}}, reach: map[string]string{"origin": `vanguard --listen :80 --upstream http://server4:443 `}},
}

// The roles and test cases every image is asked for: the contract's, the suites', one nobody
// plays or implements (the compliance probe's kind), and none.
var (
	probeRoles = []string{"client", "server", "edge", "origin", "wirelab-no-such-role", ""}
	// unknownCase is what the upstream runner's compliance probe sends: a TESTCASE no image has.
	unknownCase = "wirelab-no-such-case"
)

// probeCases are the test cases every played role is asked for: each one any image implements,
// a gRPC interop case, the unknown one and none.
func probeCases() []string {
	seen := map[string]bool{unknownCase: true, "": true, "large_unary": true}
	for _, img := range gateImages {
		for _, cases := range img.roles {
			for _, c := range cases {
				if c != anyCase && c != namedCase {
					seen[c] = true
				}
			}
		}
	}
	var out []string
	for c := range seen {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// implements reports whether the role's list takes the test case.
func implements(cases []string, tc string) bool {
	for _, c := range cases {
		if ok, _ := path.Match(c, tc); ok {
			return true
		}
	}
	return false
}

// baseEnv is what every run gets besides ROLE and TESTCASE: the clients' two URLs, a converter's
// upstream.
var baseEnv = []string{"REQUESTS=https://server4:443/a.bin https://server4:443/b.bin", "UPSTREAM=http://server4:443"}

// TestGate holds every image's /run_endpoint.sh to the contract, through the one gate of the base
// (gate.sh): a role the image does not play, or an unknown or unimplemented TESTCASE in one it
// does, answers 127 with one line naming image, role and test case, before /setup.sh (the
// network) is touched: the upstream runner's compliance probe; every test case the role
// implements gets past the gate and setup and reaches the implementation's own program.
func TestGate(t *testing.T) {
	cases := probeCases()
	for _, img := range gateImages {
		t.Run(img.name, func(t *testing.T) {
			t.Parallel()
			type want struct {
				role, tc string
				runs     bool
			}
			var runs []run
			var wants []want
			for _, role := range probeRoles {
				asked := cases
				if _, plays := img.roles[role]; !plays {
					asked = []string{unknownCase, "handshake"} // refused whatever the case
				}
				for _, tc := range asked {
					runs = append(runs, run{env: append([]string{"ROLE=" + role, "TESTCASE=" + tc}, baseEnv...)})
					wants = append(wants, want{role, tc, implements(img.roles[role], tc)})
				}
			}
			for i, r := range runInFakeRoot(t, img.fakeImage, runs) {
				w := wants[i]
				if w.runs {
					reach := regexp.MustCompile("^" + img.reach[w.role])
					if r.code == 127 || !r.calledMatch(reach) || !r.called("setup.sh") {
						t.Errorf("ROLE=%q TESTCASE=%q: exit %d, want its implementation started (a call matching %s, after setup.sh): calls %q; output:\n%s",
							w.role, w.tc, r.code, reach, r.calls, r.out)
					}
					continue
				}
				refusal := regexp.QuoteMeta(img.name+": ROLE="+w.role+" TESTCASE="+w.tc+" not supported: ") + `\S`
				if r.code != 127 || !regexp.MustCompile("^"+refusal).MatchString(r.lastLine()) || len(r.calls) > 0 {
					t.Errorf("ROLE=%q TESTCASE=%q: exit %d, last line %q, calls %q; want 127, the last line /%s/, nothing called (no setup.sh)",
						w.role, w.tc, r.code, r.lastLine(), r.calls, refusal)
				}
			}
		})
	}
}

// calledMatch reports whether a stub recorded a call matching re.
func (r result) calledMatch(re *regexp.Regexp) bool {
	for _, c := range r.calls {
		if re.MatchString(c) {
			return true
		}
	}
	return false
}

// TestImagesHaveGateEntries: every image with a /run_endpoint.sh is in gateImages, every entry
// is such an image, and every script sources the gate.
func TestImagesHaveGateEntries(t *testing.T) {
	scripts, err := filepath.Glob(filepath.Join(imagesDir, "*", "run_endpoint.sh"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, img := range gateImages {
		listed[img.name] = true
	}
	for _, s := range scripts {
		name := filepath.Base(filepath.Dir(s))
		if !listed[name] {
			t.Errorf("%s: not in gateImages (what its roles and test cases are)", s)
		}
		delete(listed, name)
		data, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), "\n. /usr/local/lib/wirelab/gate.sh "+name+" || exit 1\n") {
			t.Errorf("%s: does not source the gate as `. /usr/local/lib/wirelab/gate.sh %s || exit 1`", s, name)
		}
	}
	for name := range listed {
		t.Errorf("gateImages has %s, which has no run_endpoint.sh", name)
	}
}
