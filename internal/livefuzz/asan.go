package livefuzz

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// An ASan target (wirelab/ngtcp2-asan) writes each AddressSanitizer report to /logs/asan.<pid>
// (ASAN_OPTIONS log_path); the cell keeps the server's /logs as server/. A report is the crash
// oracle's evidence even when the server's exit alone would say little ("exited 1").
const asanGlob = "asan.*"

// asanReport is what names an ASan finding: the error, the access, and where in the target's
// own code it happened (the first frame outside the sanitizer's runtime).
type asanReport struct {
	File   string // the report, as the cell keeps it
	Kind   string // heap-buffer-overflow, heap-use-after-free, SEGV, ...
	Access string // "WRITE of size 16", "" when the report has none
	Frame  string // "parse_frame planted.c:6", "" when no frame is symbolized
}

var (
	asanErrorRE  = regexp.MustCompile(`^==\d+==ERROR: AddressSanitizer: (\S+)`)
	asanAccessRE = regexp.MustCompile(`^(READ|WRITE) of size (\d+)`)
	asanFrameRE  = regexp.MustCompile(`^\s+#\d+ 0x[0-9a-f]+ in (\S+) (\S+)`)
)

// readASan returns the first ASan report among the server's logs (the oldest file: the error
// that stopped the server), or nil when there is none.
func readASan(cellDir string) (*asanReport, error) {
	files, err := filepath.Glob(filepath.Join(cellDir, "server", asanGlob))
	if err != nil || len(files) == 0 {
		return nil, err
	}
	sort.Slice(files, func(i, j int) bool { return modTime(files[i]) < modTime(files[j]) })
	return parseASan(files[0])
}

func modTime(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.ModTime().UnixNano()
}

// parseASan reads one report file; a file without an ASan ERROR line is an error naming it.
func parseASan(path string) (*asanReport, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := &asanReport{File: path}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := asanErrorRE.FindStringSubmatch(line); m != nil && r.Kind == "" {
			r.Kind = m[1]
			continue
		}
		if r.Kind == "" {
			continue
		}
		if m := asanAccessRE.FindStringSubmatch(line); m != nil && r.Access == "" {
			r.Access = m[1] + " of size " + m[2]
			continue
		}
		if strings.TrimSpace(line) == "" && r.Frame != "" {
			break // the first stack (where the error happened) ends here
		}
		if m := asanFrameRE.FindStringSubmatch(line); m != nil && r.Frame == "" && !inSanitizer(m[1], m[2]) {
			r.Frame = m[1] + " " + filepath.Base(m[2])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if r.Kind == "" {
		return nil, fmt.Errorf("%s: no AddressSanitizer ERROR line", path)
	}
	return r, nil
}

// inSanitizer: a frame of ASan's own runtime (the interceptor that noticed, not the caller that
// did it).
func inSanitizer(function, location string) bool {
	return strings.Contains(location, "libsanitizer") || strings.Contains(location, "compiler-rt") ||
		strings.HasPrefix(function, "__asan") || strings.HasPrefix(function, "__interceptor") || strings.HasPrefix(function, "__sanitizer")
}

// Signature names the report without what changes from run to run (addresses, pids, sizes).
func (r *asanReport) Signature() string {
	s := "ASan " + r.Kind
	if access, _, _ := strings.Cut(r.Access, " "); access != "" {
		s += " (" + access + ")" // the size varies with the input, not with the bug
	}
	if r.Frame != "" {
		s += " in " + r.Frame
	}
	return s
}

// Line is the report in a line: the signature with the access size and the report's file.
func (r *asanReport) Line() string {
	s := "ASan " + r.Kind
	if r.Access != "" {
		s += " (" + r.Access + ")"
	}
	if r.Frame != "" {
		s += " in " + r.Frame
	}
	return s + " (" + filepath.Base(r.File) + ")"
}
