package main

// RFC 9113 flow-control limits.
const (
	defaultWindow   = 65535     // initial stream and connection window (§6.9.2)
	defaultMaxFrame = 16384     // SETTINGS_MAX_FRAME_SIZE until the server says otherwise (§6.5.2)
	maxWindow       = 1<<31 - 1 // a window above this is a FLOW_CONTROL_ERROR (§6.9.1)
)

// nextDataLen is the payload length of the next DATA frame: as much of what remains as one frame
// carries and both windows allow. 0 means the sender must wait for a WINDOW_UPDATE (or a SETTINGS
// change): a window can be 0 or, after the server lowered SETTINGS_INITIAL_WINDOW_SIZE, negative.
func nextDataLen(remaining int64, maxFrame uint32, streamWindow, connWindow int64) int {
	n := min(remaining, int64(maxFrame), streamWindow, connWindow)
	if n <= 0 {
		return 0
	}
	return int(n)
}
