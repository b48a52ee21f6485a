package quicinterop

import (
	"bufio"
	"bytes"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// GenerateFiles writes the case's files into dir: random lowercase names (10 letters, as
// upstream) and random contents, both derived from seed and the case name, so a rerun of a cell
// with the same seed serves the very same bytes. It returns the file names in order.
func GenerateFiles(dir string, c *Case, seed uint64) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s", seed, c.Name)
	rng := rand.New(rand.NewChaCha8(seed32(h.Sum64())))
	names := make([]string, 0, len(c.FileSizes))
	used := map[string]bool{}
	for _, size := range c.FileSizes {
		var name string
		for name == "" || used[name] {
			b := make([]byte, 10)
			for i := range b {
				b[i] = 'a' + byte(rng.IntN(26))
			}
			name = string(b)
		}
		used[name] = true
		if err := writeRandom(filepath.Join(dir, name), size, rng); err != nil {
			return nil, err
		}
		names = append(names, name)
	}
	return names, nil
}

func seed32(v uint64) [32]byte {
	var s [32]byte
	for i := range s {
		s[i] = byte(v >> (8 * (i % 8)))
		v = v*6364136223846793005 + 1442695040888963407
	}
	return s
}

func writeRandom(path string, size int64, rng *rand.Rand) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<16)
	buf := make([]byte, 8)
	for written := int64(0); written < size; written += 8 {
		v := rng.Uint64()
		for i := range buf {
			buf[i] = byte(v >> (8 * i))
		}
		n := min(int64(8), size-written)
		if _, err := w.Write(buf[:n]); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// CompareDownloads checks every served file arrived byte for byte; the error says which did not.
func CompareDownloads(www, downloads string, names []string) error {
	missing, differ := 0, 0
	first := ""
	for _, n := range names {
		want, err := os.ReadFile(filepath.Join(www, n))
		if err != nil {
			return err
		}
		got, err := os.ReadFile(filepath.Join(downloads, n))
		switch {
		case err != nil:
			missing++
		case !bytes.Equal(want, got):
			differ++
		default:
			continue
		}
		if first == "" {
			first = fmt.Sprintf("%s (%d bytes served, %d downloaded)", n, len(want), len(got))
		}
	}
	if missing+differ > 0 {
		return fmt.Errorf("files: %d of %d missing, %d differ; first: %s", missing, len(names), differ, first)
	}
	return nil
}

// downloadCount says how far a failed client got: "k of n files downloaded" (present in
// <cell>/downloads, whatever their content).
func downloadCount(cellDir string, names []string) string {
	k := 0
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(cellDir, "downloads", n)); err == nil {
			k++
		}
	}
	return fmt.Sprintf("%d of %d files downloaded", k, len(names))
}
