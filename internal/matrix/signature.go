package matrix

import (
	"regexp"
	"strings"
)

// A failure's signature is its class, stable from run to run: the reason with what varies
// between runs of the same failure (numbers, hex ids, durations, quoted values cut short) made
// into placeholders. Two failures of a cell with the same signature are the same finding; a cell
// expected to fail one way that fails another way is a regression.
var (
	sigHex    = regexp.MustCompile(`\b0x[0-9a-f]+\b|\b[0-9a-f]{8,}\b`) // ids, and Go's pointers (&{0xc3e37698e00})
	sigNumber = regexp.MustCompile(`[0-9]+(\.[0-9]+)?`)
	sigSpace  = regexp.MustCompile(`\s+`)
	// A number with a unit (1032168b, 31.5s, 40ms) is a number: at 8 digits it would pass for a hex id.
	sigUnit = regexp.MustCompile(`\b[0-9]+(\.[0-9]+)?([a-z]{1,3})\b`)
	// The served files' names are random from the run's seed (10 lowercase letters, as upstream
	// names them): in a URL path or a file check's "first:" they are ids too, and so are
	// WebTransport's endpoints and protocols (the same kind of name) where a reason quotes them.
	sigFile = regexp.MustCompile(`(/|first: |")[a-z]{10}\b`)
)

// sigLen bounds a signature: the class is in the reason's start (which check, which error).
const sigLen = 120

// Signature is a failed or unsupported result's signature ("" for a passed one): of its first
// repetition that did not pass, when it repeated (the cell's reason then starts with its pass
// rate).
func Signature(r Result) string {
	if r.Result == Succeeded {
		return ""
	}
	return SignatureOf(firstReason(r))
}

// SignatureOf makes a reason into a signature: hex ids and numbers become #, whitespace one
// space, cut at sigLen.
func SignatureOf(reason string) string {
	s := sigFile.ReplaceAllString(reason, "${1}<file>")
	s = sigUnit.ReplaceAllString(strings.ToLower(s), "#$2")
	s = sigHex.ReplaceAllString(s, "#")
	s = sigNumber.ReplaceAllString(s, "#")
	s = strings.TrimSpace(sigSpace.ReplaceAllString(s, " "))
	if len(s) > sigLen {
		s = strings.TrimSpace(s[:sigLen]) // a cut that ends in a space must not: the glob read back is trimmed
	}
	return s
}

// sigMatch matches a signature against an entry's signature glob, the glob normalized as a
// signature is (numbers and ids as #, lower case, one space), so a hand-written glob may quote
// a reason as it reads.
func sigMatch(glob, sig string) bool { return globMatch(SignatureOf(glob), sig) }

// globMatch matches s against a glob: * any run of characters (slashes too), ? one character,
// everything else itself.
func globMatch(pattern, s string) bool {
	for len(pattern) > 0 {
		switch pattern[0] {
		case '*':
			for len(pattern) > 0 && pattern[0] == '*' {
				pattern = pattern[1:]
			}
			if pattern == "" {
				return true
			}
			for i := 0; i <= len(s); i++ {
				if globMatch(pattern, s[i:]) {
					return true
				}
			}
			return false
		case '?':
			if s == "" {
				return false
			}
		default:
			if s == "" || s[0] != pattern[0] {
				return false
			}
		}
		pattern, s = pattern[1:], s[1:]
	}
	return s == ""
}
