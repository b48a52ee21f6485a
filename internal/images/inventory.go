// Package images builds the lab's docker images from their manifests and records what was built.
package images

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/wirelab/wirelab/internal/jsonfile"
)

// Entry records one built image: what make images produced and how.
type Entry struct {
	Name            string  `json:"name"`
	Ref             string  `json:"ref"`
	ID              string  `json:"id"`
	Status          string  `json:"status"` // built | up to date
	Seconds         float64 `json:"seconds"`
	Version         string  `json:"version"`                    // declared in the manifest
	DetectedVersion string  `json:"detected_version,omitempty"` // printed by version_cmd in the image
	BaseSource      string  `json:"base_source,omitempty"`      // pull | debootstrap
	BuildNetwork    string  `json:"build_network"`              // default | host
	BuiltAt         string  `json:"built_at"`
}

// Inventory is out/images/inventory.json.
type Inventory struct {
	Updated string           `json:"updated"`
	Images  map[string]Entry `json:"images"`
}

// InventoryPath is where make images writes the inventory.
func InventoryPath(out string) string { return filepath.Join(out, "images", "inventory.json") }

// LoadInventory reads the inventory; a missing file is an empty inventory.
func LoadInventory(out string) (*Inventory, error) {
	inv := &Inventory{Images: map[string]Entry{}}
	data, err := os.ReadFile(InventoryPath(out))
	if os.IsNotExist(err) {
		return inv, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, inv); err != nil {
		return nil, fmt.Errorf("%s: %v", InventoryPath(out), err)
	}
	if inv.Images == nil {
		inv.Images = map[string]Entry{}
	}
	return inv, nil
}

// Save writes the inventory atomically, so an interrupted build never leaves half a file.
func (inv *Inventory) Save(out string) error {
	inv.Updated = time.Now().UTC().Format(time.RFC3339)
	return jsonfile.Write(InventoryPath(out), inv)
}

// Record adds e to the inventory on disk. It holds the inventory's lock from reading to writing,
// so concurrent builds, in this process or another, never lose each other's entries.
func Record(out string, e Entry) error {
	path := InventoryPath(out)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	lock, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	defer lock.Close() // closing releases the lock
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("%s.lock: %v", path, err)
	}
	inv, err := LoadInventory(out)
	if err != nil {
		return err
	}
	inv.Images[e.Name] = e
	return inv.Save(out)
}
