// Package images builds the lab's docker images from their manifests and records what was built.
package images

import (
	"encoding/json"
	"os"
	"path/filepath"
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
		return nil, err
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
