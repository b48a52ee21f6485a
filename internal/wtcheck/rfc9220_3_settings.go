package wtcheck

import (
	"fmt"
	"strings"

	"github.com/wirelab/wirelab/internal/quictrace"
)

var settingsCheck = register(Check{
	Name:        "settings",
	Requirement: "RFC 9220 §3, RFC 9297 §2.1.1, draft-ietf-webtrans-http3 §3.1",
	Description: "the server's SETTINGS enable extended CONNECT; both sides' enable H3_DATAGRAM and a WebTransport setting of a draft both speak",
	Run:         checkSettings,
})

// checkSettings: RFC 9220 §3, a client must not send an extended CONNECT before the server's
// SETTINGS_ENABLE_CONNECT_PROTOCOL=1 (the client's value means nothing, so it is not asked
// for); RFC 9297 §2.1.1, HTTP datagrams need SETTINGS_H3_DATAGRAM=1 from the peer, and
// WebTransport needs them both ways; the draft, both endpoints announce WebTransport support
// with the setting of the draft they speak, so they must share one such code point.
func checkSettings(e *Evidence) Result {
	name := "settings"
	cs, ss := settings(e.Trace, quictrace.ClientToServer), settings(e.Trace, quictrace.ServerToClient)
	switch {
	case ss == nil:
		return fail(name, "the server sent no SETTINGS on a control stream")
	case cs == nil:
		return fail(name, "the client sent no SETTINGS on a control stream")
	case ss[settingEnableConnectProtocol] != 1:
		return fail(name, "the server's SETTINGS_ENABLE_CONNECT_PROTOCOL is %s, want 1 (RFC 9220 §3)", value(ss, settingEnableConnectProtocol))
	case ss[settingH3Datagram] != 1:
		return fail(name, "the server's SETTINGS_H3_DATAGRAM is %s, want 1 (RFC 9297 §2.1.1)", value(ss, settingH3Datagram))
	case cs[settingH3Datagram] != 1:
		return fail(name, "the client's SETTINGS_H3_DATAGRAM is %s, want 1 (RFC 9297 §2.1.1)", value(cs, settingH3Datagram))
	}
	var shared, clientOnly, serverOnly []string
	for _, w := range wtSettings {
		c, s := cs[w.id] > 0, ss[w.id] > 0
		switch {
		case c && s:
			shared = append(shared, w.draft)
		case c:
			clientOnly = append(clientOnly, w.draft)
		case s:
			serverOnly = append(serverOnly, w.draft)
		}
	}
	if len(shared) == 0 {
		return fail(name, "no WebTransport setting both sides sent: client %s, server %s", orNone(clientOnly), orNone(serverOnly))
	}
	return pass(name, "extended CONNECT and H3_DATAGRAM enabled; WebTransport settings both sent: %s", strings.Join(shared, ", "))
}

func value(m map[uint64]uint64, id uint64) string {
	if v, ok := m[id]; ok {
		return fmt.Sprint(v)
	}
	return "absent"
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}
