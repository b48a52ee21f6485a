package probe

import (
	"crypto/sha256"
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// burnCPU computes until its thread has had d of CPU time: CPU-bound work, which takes longer
// in wall time the busier the machine is.
func burnCPU(d time.Duration) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := threadCPU()
	buf := make([]byte, 4096)
	for threadCPU()-start < d {
		sum := sha256.Sum256(buf)
		buf[0] = sum[0]
	}
}

func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		panic(err)
	}
	return time.Duration(ts.Nano())
}
