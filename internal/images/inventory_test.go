package images

import (
	"fmt"
	"os"
	"sync"
	"testing"
)

func TestInventoryRoundTrip(t *testing.T) {
	out := t.TempDir()
	inv, err := LoadInventory(out)
	if err != nil || len(inv.Images) != 0 {
		t.Fatalf("missing inventory should load empty: %v %v", inv, err)
	}
	inv.Images["base"] = Entry{Name: "base", BaseSource: "debootstrap", DetectedVersion: "13.7"}
	if err := inv.Save(out); err != nil {
		t.Fatal(err)
	}
	got, err := LoadInventory(out)
	if err != nil || got.Images["base"].BaseSource != "debootstrap" || got.Updated == "" {
		t.Fatalf("round trip: %+v %v", got, err)
	}
	if err := os.WriteFile(InventoryPath(out), []byte("{broken"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadInventory(out); err == nil {
		t.Fatal("corrupt inventory accepted")
	}
}

func TestArchiveUnreachablePatterns(t *testing.T) {
	for _, line := range []string{
		"Err:1 http://deb.debian.org/debian trixie InRelease\n  Temporary failure resolving 'deb.debian.org'",
		"E: Failed to fetch http://deb.debian.org/debian/dists/trixie/InRelease",
	} {
		if !archiveUnreachable.MatchString(line) {
			t.Errorf("not recognised: %q", line)
		}
	}
	if archiveUnreachable.MatchString("E: Unable to locate package nosuchpkg") {
		t.Error("a missing package is not a network problem")
	}
}

// Builds finishing together each record their entry; none is lost to another's write.
func TestRecordConcurrently(t *testing.T) {
	out := t.TempDir()
	var wg sync.WaitGroup
	errs := make(chan error, 30)
	for i := range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- Record(out, Entry{Name: fmt.Sprintf("img%02d", i), Status: "built"})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	inv, err := LoadInventory(out)
	if err != nil || len(inv.Images) != 30 {
		t.Fatalf("%d of 30 entries (%v)", len(inv.Images), err)
	}
}
