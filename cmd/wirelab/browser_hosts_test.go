package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// assertFirefoxStaysInLab fails when Firefox's HTTP logs in dir (*.moz_log) show a request to a
// host other than the lab's server (server4) and the driver on loopback: a fresh profile calls
// home unless its prefs stop it (images/browser/driver/browsers.go), and only the lab's own
// networks may carry test traffic.
func assertFirefoxStaysInLab(t *testing.T, dir string) {
	t.Helper()
	logs, _ := filepath.Glob(filepath.Join(dir, "*.moz_log"))
	if len(logs) == 0 {
		t.Errorf("%s: no Firefox HTTP log", dir)
	}
	for _, path := range logs {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<16), 1<<20)
		for sc.Scan() {
			_, host, ok := strings.Cut(sc.Text(), "/nsHttp   Host: ")
			if !ok {
				continue
			}
			if name, _, _ := strings.Cut(host, ":"); name != "server4" && name != "127.0.0.1" {
				t.Errorf("%s: Firefox sent a request to %s", path, host)
			}
		}
		f.Close()
	}
}
