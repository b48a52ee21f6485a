package upload

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
)

// errAfter yields n bytes and then fails, as a client that goes away mid-upload.
type errAfter struct{ n int }

func (e *errAfter) Read(p []byte) (int, error) {
	if e.n == 0 {
		return 0, io.ErrUnexpectedEOF
	}
	k := min(len(p), e.n)
	e.n -= k
	return k, nil
}

func TestHandlerCounts(t *testing.T) {
	for _, method := range []string{http.MethodPost, http.MethodPut} {
		for _, size := range []int{0, 1, 10_000_000} {
			rec := httptest.NewRecorder()
			req := httptest.NewRequest(method, "/upload", io.LimitReader(zeros{}, int64(size)))
			req.ContentLength = -1 // as a chunked or HTTP/2 body: nothing declared
			Handler(rec, req)
			if got, want := rec.Body.String(), strconv.Itoa(size); rec.Code != 200 || got != want {
				t.Errorf("%s %d bytes: %d %q, want 200 %q", method, size, rec.Code, got, want)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "text/plain" {
				t.Errorf("Content-Type %q", ct)
			}
		}
	}
}

func TestHandlerRejects(t *testing.T) {
	rec := httptest.NewRecorder()
	Handler(rec, httptest.NewRequest(http.MethodGet, "/upload", nil))
	if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != "POST, PUT" {
		t.Errorf("GET: %d Allow=%q, want 405 POST, PUT", rec.Code, rec.Header().Get("Allow"))
	}
	rec = httptest.NewRecorder()
	Handler(rec, httptest.NewRequest(http.MethodPost, "/upload", &errAfter{n: 5}))
	if rec.Code != http.StatusBadRequest {
		t.Errorf("broken body: %d, want 400", rec.Code)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }
