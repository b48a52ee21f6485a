package main

import (
	"testing"
	"time"
)

func TestParseRate(t *testing.T) {
	for in, want := range map[string]int64{"15Mbit": 15e6, "500kbit": 5e5, "1Gbit": 1e9, "1200": 1200, "0": 0, "12.5Mbit": 12.5e6} {
		got, err := parseRate(in)
		if err != nil || got != want {
			t.Errorf("parseRate(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"fast", "-5Mbit", "Mbit"} {
		if _, err := parseRate(bad); err == nil {
			t.Errorf("parseRate(%q) accepted", bad)
		}
	}
}

func TestHeaderRoundTrip(t *testing.T) {
	b := make([]byte, headerLen+24)
	header{kind: kindDownload, session: 42, seq: 7}.put(b)
	downloadRequest{BitsPerSecond: 10e6, DurationMs: 4000, Size: 1200}.put(b)
	h, err := parseHeader(b)
	if err != nil || h.kind != kindDownload || h.session != 42 || h.seq != 7 {
		t.Fatalf("%+v %v", h, err)
	}
	r, err := parseDownloadRequest(b)
	if err != nil || r.BitsPerSecond != 10e6 || r.DurationMs != 4000 || r.Size != 1200 {
		t.Fatalf("%+v %v", r, err)
	}
	if _, err := parseHeader(b[:5]); err == nil {
		t.Fatal("short header accepted")
	}
}

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	if percentile(d, 0.5) != 50*time.Millisecond || percentile(d, 0.99) != 99*time.Millisecond {
		t.Fatalf("p50 %v p99 %v", percentile(d, 0.5), percentile(d, 0.99))
	}
}

func TestRateFillCountsGapsOnly(t *testing.T) {
	r := rateResult{Packets: 11, Bytes: 11 * 1250}
	start := time.Unix(0, 0)
	r.fill(start, start.Add(10*time.Millisecond)) // 10 gaps of 1250 B in 10 ms = 10 Mbit/s
	if r.Mbps < 9.99 || r.Mbps > 10.01 {
		t.Fatalf("%.3f Mbit/s", r.Mbps)
	}
}
