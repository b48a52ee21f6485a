package netem

import (
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
)

// substream returns a PCG generator seeded from hash(seed, names...). Every
// (direction, impairment) pair gets its own stream so that turning one
// impairment on or off never shifts the decisions of another.
func substream(seed uint64, names ...string) *rand.Rand {
	h := sha256.New()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	h.Write(b[:])
	for _, n := range names {
		h.Write([]byte(n))
		h.Write([]byte{0}) // separator: ("ab","c") != ("a","bc")
	}
	sum := h.Sum(nil)
	return rand.New(rand.NewPCG(binary.LittleEndian.Uint64(sum[0:8]), binary.LittleEndian.Uint64(sum[8:16])))
}

// open01 returns a uniform sample in the open interval (0,1), safe for
// inverse CDFs that diverge at 0 or 1.
func open01(r *rand.Rand) float64 {
	return (float64(r.Uint64()>>11) + 0.5) / (1 << 53)
}
