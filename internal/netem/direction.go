package netem

import "fmt"

// Direction is the way a packet travels through the sidecar.
type Direction int

const (
	// ToServer is client -> server ("upload").
	ToServer Direction = iota
	// ToClient is server -> client ("download").
	ToClient
)

// Directions lists both directions in a fixed order, for loops and tests.
var Directions = [2]Direction{ToServer, ToClient}

func (d Direction) String() string {
	switch d {
	case ToServer:
		return "to-server"
	case ToClient:
		return "to-client"
	}
	return fmt.Sprintf("direction(%d)", int(d))
}

// Valid reports whether d is ToServer or ToClient.
func (d Direction) Valid() bool { return d == ToServer || d == ToClient }
