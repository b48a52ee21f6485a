package benchsuite

import (
	"bufio"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Firefox's download (images/browser/driver, suite bench) is timed from its HTTP log, one file
// per download: MOZ_LOG=timestamp,nsHttp:4 as the parent process (where the HTTP stack runs for
// every content and extension process) writes it. The start is when the parent took the fetch
// over from the process that made it (HttpChannelParent RecvAsyncOpen naming the URL: lookup,
// connection and handshake come after it, as in curl's time_total and at Chromium's
// REQUEST_ALIVE), the time to first byte when the transaction began handling the response
// (nsHttpTransaction::HandleContentStart), the total when its last body bytes were handled
// (the last HandleContent with bytes read). The transaction is the one that sent the request
// line and Host of the URL; its response block's status line names the HTTP version; the body
// bytes it counted (mContentRead) must reach the response's length and the page's count. Times
// are microseconds.

// mozLogLine is the prefix MOZ_LOG's timestamp option writes:
// "2026-11-28 20:36:37.878924 UTC - [Parent 31: Main Thread]: D/nsHttp <message>".
var mozLogLine = regexp.MustCompile(`^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+) UTC - \[([^\]]*)\]: [EWIDV]/(\S+) (.*)$`)

var (
	mozRecvAsyncOpen = regexp.MustCompile(`^HttpChannelParent RecvAsyncOpen \[this=\w+ uri=([^,\s\]]+)`)
	mozTransInit     = regexp.MustCompile(`^nsHttpTransaction::Init \[this=(\w+)`)
	mozTransGone     = regexp.MustCompile(`^Destroying nsHttpTransaction @(\w+)`)
	mozContentStart  = regexp.MustCompile(`^nsHttpTransaction::HandleContentStart \[this=(\w+)\]`)
	mozContent       = regexp.MustCompile(`^nsHttpTransaction::HandleContent \[this=(\w+) count=\d+ read=(\d+) mContentRead=(\d+) mContentLength=(-?\d+)\]`)
	mozStatusLine    = regexp.MustCompile(`^  HTTP/(\d(?:\.\d)?) (\d{3})`)
)

// mozTransaction is what the log says of one transaction of the URL.
type mozTransaction struct {
	headers, last        time.Time
	version              string
	status               int
	read, contentLength  int64
	sawHeaders, sawBytes bool
}

// MozLogTimes reads the download of rawURL from a Firefox HTTP log. A log without the request,
// its response or its whole body (a browser killed mid-download leaves one), or with two
// transactions answering it, is an error naming the file.
func MozLogTimes(path, rawURL string) (browserTimes, error) {
	var d browserTimes
	want, err := url.Parse(rawURL)
	if err != nil {
		return d, fmt.Errorf("%s: %v", path, err)
	}
	f, err := os.Open(path)
	if err != nil {
		return d, err
	}
	defer f.Close()

	var start time.Time
	lastInit := map[string]string{}       // thread -> the transaction it created last
	lastStart := map[string]string{}      // thread -> the transaction whose response it began last
	block := map[string]string{}          // thread -> "request|get|response <transaction>" inside a header block
	trans := map[string]*mozTransaction{} // the URL's transactions, by address while alive
	var gone []*mozTransaction            // and once destroyed: Firefox reuses the address
	retire := func(id string) {
		if t := trans[id]; t != nil {
			gone = append(gone, t)
			delete(trans, id)
		}
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for n := 1; sc.Scan(); n++ {
		m := mozLogLine.FindStringSubmatch(sc.Text())
		if m == nil || m[3] != "nsHttp" {
			continue
		}
		at, err := time.Parse("2006-01-02 15:04:05.999999", m[1])
		if err != nil {
			return d, fmt.Errorf("%s:%d: time %q: %v", path, n, m[1], err)
		}
		thread, msg := m[2], m[4]
		if b, ok := block[thread]; ok {
			kind, id, _ := strings.Cut(b, " ")
			switch {
			case msg == "]":
				delete(block, thread)
			case kind == "request" && strings.HasPrefix(msg, "  GET "):
				if target, _, _ := strings.Cut(strings.TrimPrefix(msg, "  GET "), " "); target == want.RequestURI() {
					block[thread] = "get " + id
				}
			case kind == "get" && strings.HasPrefix(msg, "  Host: "):
				if sameHost(strings.TrimPrefix(msg, "  Host: "), want) && trans[id] == nil {
					trans[id] = &mozTransaction{contentLength: -1}
				}
			case kind == "response" && trans[id] != nil && trans[id].version == "":
				if s := mozStatusLine.FindStringSubmatch(msg); s != nil {
					trans[id].version = strings.TrimSuffix(s[1], ".0")
					trans[id].status, _ = strconv.Atoi(s[2])
				}
			}
			continue
		}
		if msg == "http request [" {
			block[thread] = "request " + lastInit[thread]
		} else if msg == "http response [" {
			block[thread] = "response " + lastStart[thread]
		} else if s := mozRecvAsyncOpen.FindStringSubmatch(msg); s != nil {
			if u, err := url.Parse(s[1]); err == nil && start.IsZero() && sameHost(u.Host, want) && u.RequestURI() == want.RequestURI() {
				start = at
			}
		} else if s := mozTransInit.FindStringSubmatch(msg); s != nil {
			retire(s[1])
			lastInit[thread] = s[1]
		} else if s := mozTransGone.FindStringSubmatch(msg); s != nil {
			retire(s[1])
		} else if s := mozContentStart.FindStringSubmatch(msg); s != nil {
			lastStart[thread] = s[1]
			if t := trans[s[1]]; t != nil && !t.sawHeaders {
				t.headers, t.sawHeaders = at, true
			}
		} else if s := mozContent.FindStringSubmatch(msg); s != nil {
			if t := trans[s[1]]; t != nil {
				read, _ := strconv.ParseInt(s[2], 10, 64)
				t.read, _ = strconv.ParseInt(s[3], 10, 64)
				t.contentLength, _ = strconv.ParseInt(s[4], 10, 64)
				if read > 0 {
					t.last, t.sawBytes = at, true
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return d, fmt.Errorf("%s: %v", path, err)
	}
	if start.IsZero() {
		return d, fmt.Errorf("%s: no request for %s (HttpChannelParent RecvAsyncOpen; MOZ_LOG without nsHttp:4?)", path, rawURL)
	}
	for id := range trans {
		retire(id)
	}
	var answered []*mozTransaction
	for _, t := range gone {
		if t.sawHeaders {
			answered = append(answered, t)
		}
	}
	switch {
	case len(gone) == 0:
		return d, fmt.Errorf("%s: the request for %s was never sent (no transaction with its request line and Host)", path, rawURL)
	case len(answered) == 0:
		return d, fmt.Errorf("%s: the request for %s read no response headers", path, rawURL)
	case len(answered) > 1:
		return d, fmt.Errorf("%s: %d transactions answered the request for %s, want one", path, len(answered), rawURL)
	}
	t := answered[0]
	switch {
	case t.version == "":
		return d, fmt.Errorf("%s: the response to %s has no status line the log names", path, rawURL)
	case t.status != 200:
		return d, fmt.Errorf("%s: the response to %s has status %d, want 200", path, rawURL, t.status)
	case !t.sawBytes:
		return d, fmt.Errorf("%s: the request for %s read no body bytes", path, rawURL)
	case t.contentLength >= 0 && t.read != t.contentLength:
		return d, fmt.Errorf("%s: the body of %s ends at %d of its %d bytes (was the browser stopped mid-download?)", path, rawURL, t.read, t.contentLength)
	}
	d.HTTPVersion, d.Bytes = t.version, t.read
	d.TTFB = max(t.headers.Sub(start).Seconds(), 1e-6)
	d.Total = max(t.last.Sub(start).Seconds(), d.TTFB)
	return d, nil
}

// sameHost: a Host header or a URL's host names want's host and port (a default port may be
// left out).
func sameHost(host string, want *url.URL) bool {
	port := func(h string) string {
		if _, p, ok := strings.Cut(h, ":"); ok {
			return p
		}
		return "443" // the lab's URLs are https
	}
	name, _, _ := strings.Cut(host, ":")
	return name == want.Hostname() && port(host) == port(want.Host)
}
