package h2suite

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// The content every h2 server serves (the same bytes everywhere): "/" must be at least 1 KiB,
// or h2spec skips its body-dependent cases (6.9.1/1, 6.9.2/1, 6.5.3/1); 1m.bin is the object
// the flow-control cases download.
const (
	IndexSize  = 4096
	ObjectName = "1m.bin"
	ObjectSize = 1 << 20
)

// WriteContent writes index.html and 1m.bin into dir, derived from seed.
func WriteContent(dir string, seed uint64) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(seed, 0x68327777)) // "h2ww"
	index := make([]byte, IndexSize)
	copy(index, fmt.Sprintf("<!doctype html><title>wirelab h2</title><p>seed %d</p>\n", seed))
	for i := 64; i < len(index)-1; i++ {
		index[i] = 'a' + byte(rng.IntN(26))
	}
	index[len(index)-1] = '\n'
	obj := make([]byte, ObjectSize)
	for i := range obj {
		obj[i] = byte(rng.Uint32())
	}
	if err := os.WriteFile(filepath.Join(dir, "index.html"), index, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, ObjectName), obj, 0o644)
}
