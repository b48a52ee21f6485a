package wtcheck

import (
	"strings"
	"testing"
)

// RFC 9220 §3, RFC 9297 §2.1.1, draft §3.1: the server enables extended CONNECT, both sides
// H3_DATAGRAM, and both speak a WebTransport draft's setting.
func TestSettings(t *testing.T) {
	for _, c := range testCases {
		wantPass(t, good(c.stream, c.requester).run(t, settingsCheck))
	}
	r := good("", "client").run(t, settingsCheck)
	wantPass(t, r)
	if want := "draft-15 SETTINGS_WT_ENABLED"; !strings.Contains(r.Reason, want) {
		t.Errorf("the pass names the draft both speak (%q): %s", want, r.Reason)
	}

	const (
		draft02 = 0x2b603742
		draft07 = 0xc671706a
		draft13 = 0x14e9cd29
		draft15 = 0x2c7cf000
	)
	for _, tc := range []struct {
		name           string
		client, server []byte // nil: the side's control stream carries no SETTINGS
		because        string // "" passes
	}{
		{"several drafts, one shared",
			settingsPayload(settingH3Datagram, 1, draft02, 1, draft07, 4),
			settingsPayload(settingEnableConnectProtocol, 1, settingH3Datagram, 1, draft07, 1, draft15, 1), ""},
		{"the client's ENABLE_CONNECT_PROTOCOL is not asked for",
			settingsPayload(settingEnableConnectProtocol, 0, settingH3Datagram, 1, draft13, 1),
			settingsPayload(settingEnableConnectProtocol, 1, settingH3Datagram, 1, draft13, 1), ""},
		{"server without ENABLE_CONNECT_PROTOCOL",
			settingsPayload(settingH3Datagram, 1, draft15, 1),
			settingsPayload(settingH3Datagram, 1, draft15, 1),
			"the server's SETTINGS_ENABLE_CONNECT_PROTOCOL is absent, want 1"},
		{"server with ENABLE_CONNECT_PROTOCOL 0",
			settingsPayload(settingH3Datagram, 1, draft15, 1),
			settingsPayload(settingEnableConnectProtocol, 0, settingH3Datagram, 1, draft15, 1),
			"the server's SETTINGS_ENABLE_CONNECT_PROTOCOL is 0, want 1"},
		{"server without H3_DATAGRAM",
			settingsPayload(settingH3Datagram, 1, draft15, 1),
			settingsPayload(settingEnableConnectProtocol, 1, draft15, 1),
			"the server's SETTINGS_H3_DATAGRAM is absent, want 1"},
		{"client without H3_DATAGRAM",
			settingsPayload(draft15, 1),
			settingsPayload(settingEnableConnectProtocol, 1, settingH3Datagram, 1, draft15, 1),
			"the client's SETTINGS_H3_DATAGRAM is absent, want 1"},
		{"client with H3_DATAGRAM 0",
			settingsPayload(settingH3Datagram, 0, draft15, 1),
			settingsPayload(settingEnableConnectProtocol, 1, settingH3Datagram, 1, draft15, 1),
			"the client's SETTINGS_H3_DATAGRAM is 0, want 1"},
		{"no WebTransport setting in common",
			settingsPayload(settingH3Datagram, 1, draft02, 1),
			settingsPayload(settingEnableConnectProtocol, 1, settingH3Datagram, 1, draft15, 1),
			"no WebTransport setting both sides sent: client draft-02 SETTINGS_ENABLE_WEBTRANSPORT, server draft-15 SETTINGS_WT_ENABLED"},
		{"the server's WebTransport setting is 0",
			settingsPayload(settingH3Datagram, 1, draft07, 1),
			settingsPayload(settingEnableConnectProtocol, 1, settingH3Datagram, 1, draft07, 0),
			"no WebTransport setting both sides sent: client draft-07 SETTINGS_WEBTRANSPORT_MAX_SESSIONS, server none"},
		{"no WebTransport setting at all",
			settingsPayload(settingH3Datagram, 1),
			settingsPayload(settingEnableConnectProtocol, 1, settingH3Datagram, 1),
			"no WebTransport setting both sides sent: client none, server none"},
		{"no SETTINGS at all", nil, nil, "the server sent no SETTINGS on a control stream"},
		{"no SETTINGS from the client",
			nil, settingsPayload(settingEnableConnectProtocol, 1, settingH3Datagram, 1, draft15, 1),
			"the client sent no SETTINGS on a control stream"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := good("", "client")
			f.clientSettings, f.serverSettings = tc.client, tc.server
			r := f.run(t, settingsCheck)
			if tc.because == "" {
				wantPass(t, r)
			} else {
				wantFail(t, r, tc.because)
			}
		})
	}
}

func TestParseSettings(t *testing.T) {
	got := parseSettings(settingsPayload(0x01, 4096, 0x2c7cf000, 1, settingH3Datagram, 1))
	if len(got) != 3 || got[0x01] != 4096 || got[0x2c7cf000] != 1 || got[settingH3Datagram] != 1 {
		t.Errorf("parseSettings: %v", got)
	}
	// A pair cut short (the value's varint is incomplete) ends the parse; what came before stays.
	got = parseSettings(append(settingsPayload(settingH3Datagram, 1, 0x08), 0x40))
	if len(got) != 1 || got[settingH3Datagram] != 1 {
		t.Errorf("truncated: %v", got)
	}
}
