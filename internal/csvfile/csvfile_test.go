package csvfile

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestRoundTripAndForeignHeader(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.csv")
	rows := [][]string{{"a", "1,5"}, {"b", ""}}
	if err := Write(path, []string{"name", "value"}, rows); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path, []string{"name", "value"})
	if err != nil || !reflect.DeepEqual(got, rows) {
		t.Fatalf("%v %v", got, err)
	}
	if _, err := Read(path, []string{"name", "other"}); err == nil || !strings.Contains(err.Error(), path+":1: want the header name,other") {
		t.Errorf("foreign header: %v", err)
	}
	if err := os.WriteFile(path, []byte("a,\"b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(path, []string{"a", "b"}); err == nil || !strings.HasPrefix(err.Error(), path+": ") {
		t.Errorf("malformed: %v", err)
	}
}
