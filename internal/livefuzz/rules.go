// Package livefuzz is make fuzz-live: a stateful fuzzing client (images/quicfuzz) against each
// QUIC server image as deployed, one cell per target and campaign through the sim, with five
// oracles — the server died, it stopped serving a second connection, its memory or idle CPU
// grew past a bound, it answered a frame against a MUST of RFC 9000/9114/9204/9221 (the rules of
// conformance/fuzz-live/rules.yml), or it answered the shared seeds unlike the other servers.
package livefuzz

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/wirelab/wirelab/internal/quicinterop"
)

// Rule is one MUST the RFC oracle holds servers to: the error codes it allows, by where they
// come (a transport CONNECTION_CLOSE 0x1c, an application one 0x1d).
type Rule struct {
	ID      string `yaml:"id" json:"id"`
	Section string `yaml:"section" json:"section"`
	Must    string `yaml:"must" json:"must"`
	Expect  struct {
		Transport   []string `yaml:"transport"`
		Application []string `yaml:"application"`
	} `yaml:"expect" json:"-"`
	// the codes, for the fuzzing client
	TransportCodes   []uint64 `yaml:"-" json:"transport,omitempty"`
	ApplicationCodes []uint64 `yaml:"-" json:"application,omitempty"`
	Expected         string   `yaml:"-" json:"expected"`
}

// Error codes by name: RFC 9000 §20.1, RFC 9114 §8.1, RFC 9204 §6.
var (
	transportCodes = map[string]uint64{
		"NO_ERROR": 0x00, "INTERNAL_ERROR": 0x01, "CONNECTION_REFUSED": 0x02, "FLOW_CONTROL_ERROR": 0x03,
		"STREAM_LIMIT_ERROR": 0x04, "STREAM_STATE_ERROR": 0x05, "FINAL_SIZE_ERROR": 0x06,
		"FRAME_ENCODING_ERROR": 0x07, "TRANSPORT_PARAMETER_ERROR": 0x08, "CONNECTION_ID_LIMIT_ERROR": 0x09,
		"PROTOCOL_VIOLATION": 0x0a, "INVALID_TOKEN": 0x0b, "APPLICATION_ERROR": 0x0c,
		"CRYPTO_BUFFER_EXCEEDED": 0x0d, "KEY_UPDATE_ERROR": 0x0e, "AEAD_LIMIT_REACHED": 0x0f, "NO_VIABLE_PATH": 0x10,
	}
	applicationCodes = map[string]uint64{
		"H3_NO_ERROR": 0x0100, "H3_GENERAL_PROTOCOL_ERROR": 0x0101, "H3_INTERNAL_ERROR": 0x0102,
		"H3_STREAM_CREATION_ERROR": 0x0103, "H3_CLOSED_CRITICAL_STREAM": 0x0104, "H3_FRAME_UNEXPECTED": 0x0105,
		"H3_FRAME_ERROR": 0x0106, "H3_EXCESSIVE_LOAD": 0x0107, "H3_ID_ERROR": 0x0108, "H3_SETTINGS_ERROR": 0x0109,
		"H3_MISSING_SETTINGS": 0x010a, "H3_REQUEST_REJECTED": 0x010b, "H3_REQUEST_CANCELLED": 0x010c,
		"H3_REQUEST_INCOMPLETE": 0x010d, "H3_MESSAGE_ERROR": 0x010e, "H3_CONNECT_ERROR": 0x010f,
		"H3_VERSION_FALLBACK": 0x0110, "QPACK_DECOMPRESSION_FAILED": 0x0200, "QPACK_ENCODER_STREAM_ERROR": 0x0201,
		"QPACK_DECODER_STREAM_ERROR": 0x0202,
	}
)

// CodeName names a CONNECTION_CLOSE's code ("PROTOCOL_VIOLATION (0xa)"); app: frame 0x1d.
func CodeName(app bool, code uint64) string {
	table := transportCodes
	if app {
		table = applicationCodes
	}
	for n, c := range table {
		if c == code {
			return fmt.Sprintf("%s (0x%x)", n, code)
		}
	}
	if !app && code >= 0x0100 && code <= 0x01ff {
		return fmt.Sprintf("CRYPTO_ERROR (0x%x: TLS alert %d)", code, code-0x100)
	}
	return fmt.Sprintf("0x%x", code)
}

var ruleIDRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// LoadRules reads and checks the rules file; a problem is one line naming file and field.
func LoadRules(path string) ([]*Rule, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Rules []*Rule `yaml:"rules"`
	}
	if err := quicinterop.DecodeStrict(path, data, "rules", &doc); err != nil {
		return nil, err
	}
	if len(doc.Rules) == 0 {
		return nil, &quicinterop.CaseError{File: path, Field: "rules", Msg: "no rules"}
	}
	seen := map[string]bool{}
	for i, r := range doc.Rules {
		bad := func(field, format string, a ...any) error {
			return &quicinterop.CaseError{File: path, Field: fmt.Sprintf("rules[%d].%s", i, field), Msg: fmt.Sprintf(format, a...)}
		}
		switch {
		case !ruleIDRE.MatchString(r.ID) || seen[r.ID]:
			return nil, bad("id", "%q is not a rule id or appears twice", r.ID)
		case r.Section == "":
			return nil, bad("section", "missing: a rule names where the RFC says it")
		case !strings.Contains(r.Must, "MUST"):
			return nil, bad("must", "quote the MUST the rule holds servers to")
		case len(r.Expect.Transport)+len(r.Expect.Application) == 0:
			return nil, bad("expect", "no error code: a rule that allows every answer cannot fail")
		}
		seen[r.ID] = true
		var names []string
		for _, kind := range []struct {
			field string
			list  []string
			table map[string]uint64
			app   bool
			codes *[]uint64
			what  string
		}{
			{"transport", r.Expect.Transport, transportCodes, false, &r.TransportCodes, "a transport error code of RFC 9000 §20.1"},
			{"application", r.Expect.Application, applicationCodes, true, &r.ApplicationCodes, "an HTTP/3 or QPACK error code (RFC 9114 §8.1, RFC 9204 §6)"},
		} {
			for j, n := range kind.list {
				c, ok := kind.table[n]
				if !ok {
					return nil, bad(fmt.Sprintf("expect.%s[%d]", kind.field, j), "%q is not %s", n, kind.what)
				}
				*kind.codes = append(*kind.codes, c)
				names = append(names, CodeName(kind.app, c))
			}
		}
		sort.Strings(names)
		r.Expected = "CONNECTION_CLOSE with " + strings.Join(names, " or ")
	}
	return doc.Rules, nil
}
