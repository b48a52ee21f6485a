package h2

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/net/http2"
)

// rfc9218Sec2_1NoRFC7540Priorities: "The value of SETTINGS_NO_RFC7540_PRIORITIES MUST be 0 or
// 1. Any value other than 0 or 1 MUST be treated as a connection error of type PROTOCOL_ERROR",
// the setting is sent in the first SETTINGS frame and "MUST NOT change" after it (RFC 9218 §2.1).
// Informational otherwise: the verdict records what the server announced.
func rfc9218Sec2_1NoRFC7540Priorities(ctx context.Context, cl *client) outcome {
	c, err := cl.dial(ctx, dialOpts{})
	var bad *settingsError
	switch {
	case errors.As(err, &bad):
		return fail("%v (the client answered GOAWAY %s)", bad, bad.code)
	case err != nil:
		return fail("connect: %v", err)
	}
	const id = http2.SettingNoRFC7540Priorities
	var values []string
	first := -1
	for i, frame := range c.peer.settings {
		for _, s := range frame {
			if s.ID == id {
				values = append(values, fmt.Sprint(s.Val))
				if first < 0 {
					first = i
				}
			}
		}
	}
	switch {
	case len(values) == 0:
		return pass("SETTINGS well formed; SETTINGS_NO_RFC7540_PRIORITIES not sent (%s)", settingsSummary(c))
	case first > 0:
		return fail("SETTINGS_NO_RFC7540_PRIORITIES first sent in SETTINGS frame %d, not the first", first+1)
	case len(values) > 1 && strings.Count(strings.Join(values, ","), values[0]) != len(values):
		return fail("SETTINGS_NO_RFC7540_PRIORITIES changed after the first SETTINGS: %s", strings.Join(values, " -> "))
	}
	return pass("SETTINGS well formed; SETTINGS_NO_RFC7540_PRIORITIES=%s (%s)", values[0], settingsSummary(c))
}

func settingsSummary(c *conn) string {
	var kv []string
	for _, frame := range c.peer.settings {
		for _, s := range frame {
			kv = append(kv, fmt.Sprintf("%s=%d", s.ID, s.Val))
		}
	}
	if len(kv) == 0 {
		return "empty SETTINGS"
	}
	return strings.Join(kv, " ")
}
