package wtsuite

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/internal/wtcheck"
)

func TestHandshakeProtocolsShareTwoInSwappedOrder(t *testing.T) {
	c := &Case{Name: "handshake"}
	for seed := uint64(1); seed <= 20; seed++ {
		in, err := MakeInputs(t.TempDir(), c, seed)
		if err != nil {
			t.Fatal(err)
		}
		var shared []string
		for _, p := range in.ClientProtocols {
			if slices.Contains(in.ServerProtocols, p) {
				shared = append(shared, p)
			}
		}
		if len(in.ClientProtocols) != 5 || len(in.ServerProtocols) != 5 || len(shared) != 2 {
			t.Fatalf("seed %d: %v / %v, want 5 each with 2 shared", seed, in.ClientProtocols, in.ServerProtocols)
		}
		// The server lists the two the other way round: a server that picks by its own
		// preference chooses the wrong one.
		if wtcheck.ExpectedProtocol(in.ClientProtocols, in.ServerProtocols) == wtcheck.ExpectedProtocol(in.ServerProtocols, in.ClientProtocols) {
			t.Fatalf("seed %d: both preferences pick the same protocol", seed)
		}
	}
}

func TestInputsFollowTheSeedAndTheDirection(t *testing.T) {
	send := &Case{Name: "transfer-bidirectional-send", Stream: "bidirectional", Direction: "send", FileSizes: []int64{10, 20}}
	a, b := t.TempDir(), t.TempDir()
	ina, err := MakeInputs(a, send, 7)
	if err != nil {
		t.Fatal(err)
	}
	inb, _ := MakeInputs(b, send, 7)
	if !reflect.DeepEqual(ina, inb) {
		t.Fatalf("same seed, different inputs: %+v / %+v", ina, inb)
	}
	// *-send: the client serves the files; both sides have the endpoint's folder (a server
	// finds its endpoints by them).
	for _, f := range ina.Files {
		if _, err := os.Stat(filepath.Join(a, clientWWW, ina.Endpoint, f)); err != nil {
			t.Errorf("file %s not in the client's www: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(a, serverWWW, ina.Endpoint)); err != nil {
		t.Errorf("no endpoint folder in the server's www: %v", err)
	}
	client, server := send.Requests(ina)
	if client != "https://server4:443/"+ina.Endpoint || !strings.HasPrefix(server, ina.Endpoint+"/") || len(strings.Fields(server)) != 2 {
		t.Errorf("*-send REQUESTS: client %q, server %q", client, server)
	}
	back, err := ReadInputs(a)
	if err != nil || !reflect.DeepEqual(back, ina) {
		t.Errorf("inputs read back: %+v, %v", back, err)
	}
	recv := &Case{Name: "transfer-bidirectional-receive", Stream: "bidirectional", Direction: "receive", FileSizes: []int64{10}}
	inr, _ := MakeInputs(t.TempDir(), recv, 7)
	client, server = recv.Requests(inr)
	if client != "https://server4:443/"+inr.Endpoint+"/"+inr.Files[0] || server != "" {
		t.Errorf("*-receive REQUESTS: client %q, server %q", client, server)
	}
}

func TestCompareFilesIsUpstreamsCheck(t *testing.T) {
	src, dl := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(src, "a"), []byte("abc"), 0o644)
	os.WriteFile(filepath.Join(src, "b"), []byte("xyz"), 0o644)
	os.WriteFile(filepath.Join(dl, "a"), []byte("abc"), 0o644)
	if err := CompareFiles(src, dl, []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), "1 of 2 files missing") {
		t.Errorf("a missing file: %v", err)
	}
	os.WriteFile(filepath.Join(dl, "b"), []byte("xyZ"), 0o644)
	if err := CompareFiles(src, dl, []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), "1 differ") {
		t.Errorf("a file that differs: %v", err)
	}
	os.WriteFile(filepath.Join(dl, "b"), []byte("xyz"), 0o644)
	if err := CompareFiles(src, dl, []string{"a", "b"}); err != nil {
		t.Errorf("identical files: %v", err)
	}
	os.WriteFile(filepath.Join(dl, "c"), []byte("?"), 0o644)
	if err := CompareFiles(src, dl, []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), "unexpected file c") {
		t.Errorf("an extra file: %v", err)
	}
	if err := CompareFiles(src, filepath.Join(dl, "nope"), []string{"a"}); err == nil {
		t.Error("no download folder passed")
	}
}
