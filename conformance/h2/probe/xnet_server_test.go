package probe

import (
	"net/http"
	"testing"
	"time"

	"github.com/wirelab/wirelab/conformance/h2/h2test"
	"golang.org/x/net/http2"
)

// xnetOpts vary what is around x/net's server, never the server itself (always its defaults).
type xnetOpts struct {
	// abusiveWork is time each request of the abusive connection (its user-agent) spends in
	// the handler regardless of cancellation, as a slow backend call does: the handler
	// outlives its reset stream. The well-behaved client's requests are not slowed, so its
	// baseline stays short.
	abusiveWork time.Duration
	// sendBuffer > 0 fixes the server socket's send buffer. Loopback's 64 KiB MSS lets Linux
	// autotune it to megabytes, which swallow every ACK of a 20000-frame flood before the
	// server's own queue sees one; a path with a 1500-byte MTU gives tens of KiB.
	sendBuffer int
}

// xnetServer serves the lab's h2 contract with golang.org/x/net/http2's server on loopback
// (h2test's reference at x/net's defaults).
func xnetServer(t *testing.T, o xnetOpts) *Target {
	t.Helper()
	slowAbuser := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.UserAgent() == probeUserAgent {
				time.Sleep(o.abusiveWork)
			}
			h.ServeHTTP(w, r)
		})
	}
	addr := h2test.StartReferenceWith(t, &http2.Server{}, h2test.ReferenceOpts{Wrap: slowAbuser, SendBuffer: o.sendBuffer})
	return testTarget(addr)
}
