package main

import "testing"

func TestNextDataLenStaysWithinLimits(t *testing.T) {
	tests := []struct {
		name         string
		remaining    int64
		maxFrame     uint32
		stream, conn int64
		want         int
	}{
		{"frame size limits", 1 << 20, 16384, 65535, 65535, 16384},
		{"stream window limits", 1 << 20, 16384, 1000, 65535, 1000},
		{"connection window limits", 1 << 20, 16384, 65535, 999, 999},
		{"remaining limits", 10, 16384, 65535, 65535, 10},
		{"large frames, large windows", 100_000_000, 1<<24 - 1, 1 << 30, 1<<31 - 1, 1<<24 - 1},
		{"windows at the maximum", 1 << 40, 1<<24 - 1, 1<<31 - 1, 1<<31 - 1, 1<<24 - 1},
		{"stream window closed", 1 << 20, 16384, 0, 65535, 0},
		{"connection window closed", 1 << 20, 16384, 65535, 0, 0},
		{"both closed", 1 << 20, 16384, 0, 0, 0},
		{"stream window negative after a SETTINGS change", 1 << 20, 16384, -5000, 65535, 0},
		{"one byte of window", 1 << 20, 16384, 1, 65535, 1},
		{"nothing left", 0, 16384, 65535, 65535, 0},
	}
	for _, tt := range tests {
		got := nextDataLen(tt.remaining, tt.maxFrame, tt.stream, tt.conn)
		if got != tt.want {
			t.Errorf("%s: nextDataLen(%d, %d, %d, %d) = %d, want %d", tt.name, tt.remaining, tt.maxFrame, tt.stream, tt.conn, got, tt.want)
		}
		if got < 0 || int64(got) > tt.remaining || uint32(got) > tt.maxFrame || int64(got) > max(tt.stream, 0) || int64(got) > max(tt.conn, 0) {
			t.Errorf("%s: %d exceeds a limit", tt.name, got)
		}
	}
}
