package benchsuite

import (
	"errors"
	"strings"
	"testing"
)

// TestCheckTCPCC: a repetition whose server namespace runs another algorithm than asked for, or
// whose read-back failed, fails; the pinned default applies when none is asked for.
func TestCheckTCPCC(t *testing.T) {
	for _, c := range []struct {
		out     string
		err     error
		cc      string
		want    string
		wantErr string
	}{
		{out: "cubic\n", cc: "", want: "cubic"},
		{out: "bbr\n", cc: "bbr", want: "bbr"},
		{out: "bbr\n", cc: "", want: "bbr", wantErr: `is "bbr" (<nil>), want "cubic"`},
		{out: "cubic\n", cc: "reno", want: "cubic", wantErr: `want "reno"`},
		{out: "", cc: "bbr", err: errors.New("exec failed"), wantErr: "exec failed"},
	} {
		got, err := checkTCPCC([]byte(c.out), c.err, c.cc)
		if c.wantErr == "" && (err != nil || got != c.want) {
			t.Errorf("%q asked %q: %q, %v", c.out, c.cc, got, err)
		}
		if c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)) {
			t.Errorf("%q asked %q: error %v, want one containing %q", c.out, c.cc, err, c.wantErr)
		}
	}
}
