package topology

import "testing"

func TestLastWordsSkipsShellTrace(t *testing.T) {
	for log, want := range map[string]string{
		"starting\nError: handshake timeout\n":                     "Error: handshake timeout",
		"Error: boom\n+ h09gtlsclient -q server4 443 https://x/\n": "Error: boom",
		"+ h09gtlsclient -q server4 443\n":                         "no output",
		"":                                                         "no output",
	} {
		if got := LastWords(log); got != want {
			t.Errorf("LastWords(%q) = %q, want %q", log, got, want)
		}
	}
}
