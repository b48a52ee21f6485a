package wtcheck

import (
	"slices"
	"testing"
)

// draft §3.3: the client offers its protocols in order (WT-Available-Protocols), the server
// picks the client's first it supports (WT-Protocol), both write it to negotiated_protocol.txt.
func TestProtocol(t *testing.T) {
	r := good("", "client").run(t, protocolNegotiation)
	wantPass(t, r)
	if want := `offered 3, the server chose "p-first", both endpoints wrote it`; r.Reason != want {
		t.Errorf("reason %q, want %q", r.Reason, want)
	}
	// The transfer cases give both sides one protocol.
	wantPass(t, good("datagram", "client").run(t, protocolNegotiation))

	for _, tc := range []struct {
		name    string
		change  func(f *fixture)
		because string // "" passes
	}{
		{"parameters on the members", func(f *fixture) {
			f.request = with(f.request, "wt-available-protocols", `"c-only";q=1, "p-first";x="y", "p-second";b=?0`)
			f.response = with(f.response, "wt-protocol", `"p-first";a=1`)
		}, ""},
		{"negotiated_protocol.txt with surrounding space", func(f *fixture) { f.ServerNegotiated = ptr("  p-first\r\n") }, ""},
		{"the server chose by its own preference", func(f *fixture) { f.response = with(f.response, "wt-protocol", `"p-second"`) },
			`the server chose "p-second", want "p-first" (the client's first protocol the server supports)`},
		{"the server chose one it does not support", func(f *fixture) { f.response = with(f.response, "wt-protocol", `"c-only"`) },
			`the server chose "c-only", want "p-first"`},
		{"the client offered them in another order", func(f *fixture) {
			f.request = with(f.request, "wt-available-protocols", sfList("p-second", "c-only", "p-first"))
		}, `the client offered ["p-second" "c-only" "p-first"], it was given ["c-only" "p-first" "p-second"]`},
		{"the client offered only some", func(f *fixture) {
			f.request = with(f.request, "wt-available-protocols", sfList("c-only", "p-first"))
		}, `the client offered ["c-only" "p-first"]`},
		{"no wt-available-protocols", func(f *fixture) { f.request = with(f.request, "wt-available-protocols", "") },
			`the CONNECT carries no wt-available-protocols (the client was given "c-only p-first p-second")`},
		{"the offer as tokens", func(f *fixture) { f.request = with(f.request, "wt-available-protocols", "c-only, p-first, p-second") },
			`wt-available-protocols "c-only, p-first, p-second": member "c-only, p-first, p-second" is not a String`},
		{"no wt-protocol", func(f *fixture) { f.response = with(f.response, "wt-protocol", "") },
			`the response carries no wt-protocol (want "p-first")`},
		{"wt-protocol a token", func(f *fixture) { f.response = with(f.response, "wt-protocol", "p-first") },
			`wt-protocol "p-first" is not one String`},
		{"wt-protocol two Strings", func(f *fixture) { f.response = with(f.response, "wt-protocol", sfList("p-first", "p-second")) },
			`wt-protocol "\"p-first\", \"p-second\"" is not one String`},
		{"the client wrote no negotiated_protocol.txt", func(f *fixture) { f.ClientNegotiated = nil },
			"the client wrote no /downloads/negotiated_protocol.txt"},
		{"the server wrote no negotiated_protocol.txt", func(f *fixture) { f.ServerNegotiated = nil },
			"the server wrote no /downloads/negotiated_protocol.txt"},
		{"the client wrote another protocol", func(f *fixture) { f.ClientNegotiated = ptr("p-second\n") },
			`the client's negotiated_protocol.txt says "p-second", want "p-first"`},
		{"the server wrote another protocol", func(f *fixture) { f.ServerNegotiated = ptr("p-second") },
			`the server's negotiated_protocol.txt says "p-second", want "p-first"`},
		{"the server wrote nothing", func(f *fixture) { f.ServerNegotiated = ptr("") },
			`the server's negotiated_protocol.txt says "", want "p-first"`},
		{"no session", func(f *fixture) { f.request, f.response = nil, nil },
			"no extended CONNECT to read the negotiation from"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := good("", "client")
			tc.change(f)
			r := f.run(t, protocolNegotiation)
			if tc.because == "" {
				wantPass(t, r)
			} else {
				wantFail(t, r, tc.because)
			}
		})
	}
}

func TestExpectedProtocol(t *testing.T) {
	for _, tc := range []struct {
		client, server []string
		want           string
	}{
		{[]string{"c-only", "p-first", "p-second"}, []string{"p-second", "s-only", "p-first"}, "p-first"},
		{[]string{"a"}, []string{"a"}, "a"},
		{[]string{"a", "b"}, []string{"c"}, ""},
		{nil, []string{"a"}, ""},
		{[]string{"a"}, nil, ""},
	} {
		if got := ExpectedProtocol(tc.client, tc.server); got != tc.want {
			t.Errorf("ExpectedProtocol(%q, %q) = %q, want %q", tc.client, tc.server, got, tc.want)
		}
	}
}

// RFC 9651 §3.1 (List), §3.3.3 (String), §3.1.2 (Parameters): a List of Strings, parameters
// ignored; anything else in a member is an error.
func TestSFStrings(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{``, nil},
		{`"a"`, []string{"a"}},
		{`"a", "b"`, []string{"a", "b"}},
		{`"a","b"`, []string{"a", "b"}},
		{"  \"a\" ,\t \"b\"  ", []string{"a", "b"}},
		{`""`, []string{""}},
		{`"with space", "comma, inside"`, []string{"with space", "comma, inside"}},
		{`"a\"b", "c\\d"`, []string{`a"b`, `c\d`}},
		{`"\\\""`, []string{`\"`}},
		{`"a";q=1, "b";x;y=?0`, []string{"a", "b"}},
		{`"a";p="v", "b";n=1.5`, []string{"a", "b"}},
	} {
		got, err := sfStrings(tc.in)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("sfStrings(%s) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{
		`p-first`,          // a Token
		`"a", p-first`,     // a Token after a String
		`p-first, "a"`,     // a Token before one
		`?1`,               // a Boolean
		`42`,               // an Integer
		`("a" "b")`,        // an Inner List
		`"a",`,             // a trailing comma
		`"a", `,            // one followed by space
		`"unterminated`,    // no closing quote
		`"escaped quote\"`, // the closing quote escaped
		`"a", "b`,          // the second unterminated
	} {
		if got, err := sfStrings(in); err == nil {
			t.Errorf("sfStrings(%s) = %q, want an error", in, got)
		}
	}
}
