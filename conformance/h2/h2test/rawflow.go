package h2test

import (
	"slices"
	"strconv"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// data accounts a DATA frame against the server's windows (§6.9: the whole payload, padding
// included) and consumes it for uploads.
func (c *rawConn) data(f *http2.DataFrame) error {
	id, n := f.StreamID, int64(f.Length)
	charge := n // what the windows are charged; credit gives back n
	if c.faults&NoPaddingCharge != 0 {
		charge = int64(len(f.Data()))
	}
	enforce := c.faults&AcceptWindowOverrun == 0
	if id > c.maxID {
		return http2.ConnectionError(http2.ErrCodeProtocol) // idle stream
	}
	if charge > c.recvConn && enforce {
		return http2.ConnectionError(http2.ErrCodeFlowControl)
	}
	if f.Flags.Has(http2.FlagDataPadded) && c.faults&RejectPaddedData != 0 {
		return http2.ConnectionError(http2.ErrCodeProtocol)
	}
	st := c.streams[id]
	if st == nil && c.faults&GoAwayOnResetStreamData != 0 {
		return http2.ConnectionError(http2.ErrCodeNo)
	}
	if st == nil || st.reqDone {
		// Reset or finished: the connection window still counts it (and credits it back).
		c.recvConn -= charge
		if c.faults&LeakResetStreamWindow == 0 {
			c.creditConn += n
		}
		return http2.StreamError{StreamID: id, Code: http2.ErrCodeStreamClosed}
	}
	zero := st.recv == 0 || c.recvConn == 0
	if charge > st.recv && enforce || n == 0 && zero && c.faults&RejectEmptyDataAtZeroWindow != 0 {
		c.recvConn -= charge
		c.creditConn += n
		return http2.StreamError{StreamID: id, Code: http2.ErrCodeFlowControl}
	}
	c.recvConn -= charge
	st.recv -= charge
	if st.upload {
		st.count += int64(len(f.Data()))
		if c.faults&EchoUpload != 0 {
			st.echo = append(st.echo, f.Data()...)
		}
		credit := n
		if c.faults&NoPaddingCredit != 0 {
			credit = int64(len(f.Data()))
		}
		st.credit += credit
		c.creditConn += credit
	} // a GET's body is left unread, like a handler that ignores it: no credit
	if f.StreamEnded() {
		st.reqDone = true
		if st.upload {
			c.respond(st, "200", c.uploadAnswer(st))
		}
	}
	return nil
}

// uploadAnswer is the body of the answer to a finished upload: its byte count, or the body.
func (c *rawConn) uploadAnswer(st *rawStream) []byte {
	if c.faults&EchoUpload != 0 {
		return st.echo
	}
	return []byte(strconv.FormatInt(st.count, 10))
}

func (c *rawConn) reset(id uint32, code http2.ErrCode) {
	delete(c.streams, id)
	c.fr.WriteRSTStream(id, code)
}

func (c *rawConn) respond(st *rawStream, status string, body []byte) {
	st.status, st.body, st.responded = status, body, false
}

// pump writes response HEADERS and as much DATA as the client's windows allow: each stream to
// its limit in turn, or with RoundRobin one frame per stream per round, resuming after the stream
// served last.
func (c *rawConn) pump() {
	ids := make([]uint32, 0, len(c.streams))
	for id, st := range c.streams {
		if st.status != "" && !st.respDone {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		if st := c.streams[id]; !st.responded {
			c.hbuf.Reset()
			c.henc.WriteField(hf(":status", st.status))
			c.henc.WriteField(hf("content-length", strconv.Itoa(len(st.body))))
			c.fr.WriteHeaders(http2.HeadersFrameParam{
				StreamID: id, BlockFragment: c.hbuf.Bytes(), EndHeaders: true, EndStream: len(st.body) == 0,
			})
			st.responded = true
		}
	}
	if c.faults&RoundRobin != 0 {
		// Start after the stream served last, so every stream gets its turn.
		start, _ := slices.BinarySearch(ids, c.lastServed+1)
		ids = append(ids[start:], ids[:start]...)
	}
	for sent := true; sent; {
		sent = false
		for _, id := range ids {
			st := c.streams[id]
			for len(st.body) > 0 && c.sendFrame(st) {
				sent = true
				c.lastServed = id
				if c.faults&RoundRobin != 0 {
					break
				}
			}
		}
		if c.faults&RoundRobin == 0 {
			break
		}
	}
	for _, id := range ids {
		if st := c.streams[id]; len(st.body) == 0 {
			st.respDone = true
			if st.reqDone {
				delete(c.streams, id)
			}
		}
	}
}

// sendFrame writes the next DATA frame of st's response if the windows allow one.
func (c *rawConn) sendFrame(st *rawStream) bool {
	n := min(int64(len(st.body)), c.peerFrame)
	if c.faults&SmallFrames != 0 {
		n = min(n, 4096)
	}
	switch {
	case c.faults&IgnoreClientWindow != 0:
	case c.faults&IgnoreStreamWindow != 0:
		n = min(n, c.sendConn)
	default:
		n = min(n, st.send, c.sendConn)
	}
	if n <= 0 || n < c.minSend() && n < int64(len(st.body)) {
		return false
	}
	c.fr.WriteData(st.id, n == int64(len(st.body)), st.body[:n])
	st.body = st.body[n:]
	st.send -= n
	c.sendConn -= n
	return true
}

// minSend is the least window a response frame waits for (silly-window avoidance).
func (c *rawConn) minSend() int64 {
	switch {
	case c.faults&WaitForBigWindow != 0:
		return 1024
	case c.faults&WaitForSomeWindow != 0:
		return 512
	}
	return 1
}

// sendCredit returns consumed window to the client.
func (c *rawConn) sendCredit() {
	lazy := c.faults&LazyConnCredit != 0 && c.creditConn < c.connWindow/2
	if c.creditConn > 0 && !lazy {
		c.fr.WriteWindowUpdate(0, uint32(c.creditConn))
		c.recvConn += c.creditConn
		c.creditConn = 0
	}
	for id, st := range c.streams {
		if st.credit > 0 && !st.reqDone {
			c.fr.WriteWindowUpdate(id, uint32(st.credit))
			st.recv += st.credit
		}
		st.credit = 0
	}
}

func hf(name, value string) hpack.HeaderField { return hpack.HeaderField{Name: name, Value: value} }
