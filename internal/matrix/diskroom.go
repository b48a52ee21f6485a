package matrix

import (
	"fmt"
	"syscall"
)

// minFreeBytes is the room a run needs left under its folder to go on: below it the next cell
// would fail for want of disk, and its verdict would say nothing about the stacks.
const minFreeBytes = 1 << 20

// checkDiskRoom returns an error wrapping syscall.ENOSPC when dir's file system has less than
// minFreeBytes available. A full disk is the machine's problem, not a cell's: the run stops
// instead of journaling failures that --resume would then skip.
func checkDiskRoom(dir string) error {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	if free := st.Bavail * uint64(st.Bsize); free < minFreeBytes {
		return fmt.Errorf("%s: %w (%d KiB free)", dir, syscall.ENOSPC, free/1024)
	}
	return nil
}
