package h2

import (
	_ "embed"
	"fmt"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

//go:embed cases.yml
var casesYAML []byte

// Case is one entry of cases.yml.
type Case struct {
	Name        string        `yaml:"name"`
	Requirement string        `yaml:"requirement"`
	Description string        `yaml:"description"`
	Timeout     time.Duration `yaml:"-"`
	TimeoutText string        `yaml:"timeout"`

	run caseFunc
}

// caseFuncs binds the names in cases.yml to the functions that check them.
var caseFuncs = map[string]caseFunc{
	"6.9.1-enforces-receive-window":         sec6_9_1EnforcesReceiveWindow,
	"6.9-reset-stream-connection-window":    sec6_9ResetStreamConnectionWindow,
	"6.1-padding-flow-control":              sec6_1PaddingFlowControl,
	"6.9.1-empty-end-stream-at-zero-window": sec6_9_1EmptyEndStreamAtZeroWindow,
	"6.9.2-initial-window-overflow":         sec6_9_2InitialWindowOverflow,
	"6.9.3-window-reduction-in-flight":      sec6_9_3WindowReductionInFlight,
	"6.9-tiny-window-updates":               sec6_9TinyWindowUpdates,
	"6.9.1-respects-client-window":          sec6_9_1RespectsClientWindow,
	"rfc9218-2.1-no-rfc7540-priorities":     rfc9218Sec2_1NoRFC7540Priorities,
	"8.2.2-te-not-trailers":                 sec8_2_2TENotTrailers,
	"6.9.1-respects-client-stream-window":   sec6_9_1RespectsClientStreamWindow,
	"6.1-padded-overrun":                    sec6_1PaddedOverrun,
}

// Cases returns every case in cases.yml order.
func Cases() ([]Case, error) { return parseCases(casesYAML) }

func parseCases(data []byte) ([]Case, error) {
	var cases []Case
	if err := yaml.Unmarshal(data, &cases); err != nil {
		return nil, fmt.Errorf("cases.yml: %v", err)
	}
	seen := map[string]bool{}
	for i := range cases {
		c := &cases[i]
		switch {
		case c.Name == "":
			return nil, fmt.Errorf("cases.yml: case %d: name missing", i)
		case seen[c.Name]:
			return nil, fmt.Errorf("cases.yml: %s: duplicate name", c.Name)
		case c.Requirement == "":
			return nil, fmt.Errorf("cases.yml: %s: requirement missing", c.Name)
		}
		seen[c.Name] = true
		d, err := time.ParseDuration(c.TimeoutText)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("cases.yml: %s: timeout %q is not a positive duration", c.Name, c.TimeoutText)
		}
		c.Timeout = d
		if c.run = caseFuncs[c.Name]; c.run == nil {
			return nil, fmt.Errorf("cases.yml: %s: no function implements this case", c.Name)
		}
	}
	return cases, nil
}

// Select picks cases by a comma list: "all", exact names, or section prefixes ("6.9" selects
// 6.9-*, 6.9.1-*, 6.9.2-*, ...). A token that matches nothing is an error naming it.
func Select(cases []Case, list string) ([]Case, error) {
	var want []string
	for _, tok := range strings.Split(list, ",") {
		if tok = strings.TrimSpace(tok); tok != "" {
			want = append(want, tok)
		}
	}
	if len(want) == 0 {
		return nil, fmt.Errorf("empty case list")
	}
	picked := make([]bool, len(cases))
	for _, tok := range want {
		hit := false
		for i, c := range cases {
			if tok == "all" || tok == c.Name || strings.HasPrefix(c.Name, tok+"-") || strings.HasPrefix(c.Name, tok+".") {
				picked[i], hit = true, true
			}
		}
		if !hit {
			return nil, fmt.Errorf("unknown case %q", tok)
		}
	}
	var out []Case
	for i, c := range cases {
		if picked[i] {
			out = append(out, c)
		}
	}
	return out, nil
}
