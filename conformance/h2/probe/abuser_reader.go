package probe

import (
	"errors"
	"os"

	"golang.org/x/net/http2"
)

// readLoop reads the server's frames until the connection ends or the read deadline passes.
// Only GOAWAY and the end itself matter; everything else (responses, ACKs, RST_STREAMs) is read
// just to be drained.
func (a *abuser) readLoop() {
	defer close(a.readerDone)
	for {
		f, err := a.rfr.ReadFrame()
		if err == nil {
			if ga, ok := f.(*http2.GoAwayFrame); ok {
				a.noteGoAway(ga.ErrCode)
			}
			continue
		}
		var se http2.StreamError
		if errors.As(err, &se) {
			continue // one malformed frame of the server's; the connection goes on
		}
		var ce http2.ConnectionError
		if a.closing.Load() || errors.As(err, &ce) || errors.Is(err, os.ErrDeadlineExceeded) {
			return // our own close or deadline, or a server frame we cannot parse: not a cut
		}
		a.noteClosed() // EOF or reset: the server closed the connection
		return
	}
}
