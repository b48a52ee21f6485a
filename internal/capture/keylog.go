package capture

import (
	"os"
	"path/filepath"
)

// MergeKeylogs joins the client's and the server's keys.log (SSLKEYLOGFILE format) into the
// cell's keys.log (either may be missing; some endpoints write none) and returns its path, or ""
// when there are no secrets. tshark and editcap take one keylog: the merged one decrypts the
// connections of both sides.
func MergeKeylogs(cellDir string) (string, error) {
	all := Keylogs(cellDir)
	if len(all) == 0 {
		return "", nil
	}
	path := filepath.Join(cellDir, "keys.log")
	return path, os.WriteFile(path, all, 0o644)
}

// Keylogs returns the client's and the server's keys.log of a cell joined (nil when neither
// wrote a secret), without writing anything.
func Keylogs(cellDir string) []byte {
	var all []byte
	for _, side := range []string{"client", "server"} {
		if b, err := os.ReadFile(filepath.Join(cellDir, side, "keys.log")); err == nil {
			all = append(all, b...)
			if len(b) > 0 && b[len(b)-1] != '\n' {
				all = append(all, '\n')
			}
		}
	}
	return all
}
