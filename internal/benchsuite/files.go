package benchsuite

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// WriteFiles writes one file of each size into dir (<size>.bin), random bytes derived from
// seed, so a rerun with the same seed serves the same bytes. A file already there with the
// right size is kept (--resume, and cells sharing the run's www/).
func WriteFiles(dir string, sizes []Size, seed uint64) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, s := range sizes {
		path := filepath.Join(dir, s.File())
		if st, err := os.Stat(path); err == nil && st.Size() == s.Bytes {
			continue
		}
		if err := writeRandom(path, s.Bytes, rand.New(rand.NewPCG(seed, uint64(i)+0x62656e6368))); err != nil { // "bench"
			return err
		}
	}
	return nil
}

func writeRandom(path string, size int64, rng *rand.Rand) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<16)
	var buf [8]byte
	for n := int64(0); n < size; n += 8 {
		v := rng.Uint64()
		for i := range buf {
			buf[i] = byte(v >> (8 * i))
		}
		if _, err := w.Write(buf[:min(8, size-n)]); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path) // a cut write never looks like a finished file
}

// HashFiles is the SHA-256 (hex) of each size's object in dir, by size name: what a client that
// saves the body must have received (bench.jsonl's sha256).
func HashFiles(dir string, sizes []Size) (map[string]string, error) {
	out := map[string]string{}
	for _, s := range sizes {
		f, err := os.Open(filepath.Join(dir, s.File()))
		if err != nil {
			return nil, err
		}
		h := sha256.New()
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return nil, err
		}
		out[s.Name] = hex.EncodeToString(h.Sum(nil))
	}
	return out, nil
}
