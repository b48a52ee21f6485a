package profile

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/wirelab/wirelab/internal/netem"
)

// Leaf values of the schema. Each parses itself from the string form used
// both in the YAML file and in reference overrides, so the two report the
// same errors.
type scalar interface {
	set(s string) error
}

type (
	text         string
	duration     time.Duration
	percent      float64 // stored as a probability in [0,1]
	rate         int64   // bits per second; 0 = unlimited
	queueSize    netem.Depth
	threshold    netem.Depth
	dropIndices  []int
	distribution netem.Distribution
	blackholeDir string // "both", "to_client" or "to_server"
	flag         bool
	count        int
	burstLen     float64
)

func (t *text) set(s string) error { *t = text(s); return nil }

func (d *duration) set(s string) error {
	v, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("bad duration %q (want e.g. 15ms or 1.5s)", s)
	}
	if v < 0 {
		return fmt.Errorf("negative duration %q", s)
	}
	*d = duration(v)
	return nil
}

// set accepts "5%", "0.5%" or a plain number meaning percent.
func (p *percent) set(s string) error {
	num := strings.TrimSuffix(strings.TrimSpace(s), "%")
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || num == "" {
		return fmt.Errorf("bad percentage %q (want e.g. 5%% or 0.5)", s)
	}
	if !(v >= 0 && v <= 100) {
		return fmt.Errorf("percentage %q out of range [0%%, 100%%]", s)
	}
	*p = percent(v / 100)
	return nil
}

// Rate units are bits per second, SI prefixes. "Mbps" is accepted as ns-3
// and the upstream simulator spell it (--bandwidth=10Mbps); byte rates are
// not, to avoid tc's "mbps means megabytes" trap.
var rateUnits = map[string]float64{
	"bit": 1, "kbit": 1e3, "Mbit": 1e6, "Gbit": 1e9,
	"bps": 1, "kbps": 1e3, "Mbps": 1e6, "Gbps": 1e9,
}

const maxRate = 1e12 // 1 Tbit/s: beyond anything the sidecar can forward

func (r *rate) set(s string) error {
	s = strings.TrimSpace(s)
	if s == "0" || s == "unlimited" {
		*r = 0
		return nil
	}
	num, unit := splitUnit(s)
	mult, ok := rateUnits[unit]
	if !ok {
		return fmt.Errorf("bad rate unit %q in %q (want bit, kbit, Mbit, Gbit; bps, kbps, Mbps, Gbps also mean bits; 0 or unlimited for none)", unit, s)
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return fmt.Errorf("bad rate %q", s)
	}
	bits := v * mult
	if !(bits >= 1 && bits <= maxRate) {
		return fmt.Errorf("rate %q out of range [1bit, 1000Gbit]", s)
	}
	*r = rate(math.Round(bits))
	return nil
}

var byteUnits = map[string]float64{"B": 1, "KB": 1e3, "KiB": 1 << 10, "MB": 1e6, "MiB": 1 << 20}

// parseDepth reads "25pkt", a plain packet count, or a byte size.
func parseDepth(s, what string) (netem.Depth, error) {
	s = strings.TrimSpace(s)
	num, unit := splitUnit(s)
	v, err := strconv.ParseFloat(num, 64)
	if unit == "" || unit == "pkt" {
		if err != nil || v != math.Trunc(v) {
			return netem.Depth{}, fmt.Errorf("bad %s %q (want e.g. 25pkt or 64KiB)", what, s)
		}
		if !(v >= 1 && v <= 1e6) {
			return netem.Depth{}, fmt.Errorf("%s %q out of range [1pkt, 1000000pkt]", what, s)
		}
		return netem.Depth{Packets: int(v)}, nil
	}
	mult, ok := byteUnits[unit]
	if !ok {
		return netem.Depth{}, fmt.Errorf("bad %s unit %q in %q (want pkt, B, KB, KiB, MB or MiB)", what, unit, s)
	}
	if err != nil {
		return netem.Depth{}, fmt.Errorf("bad %s %q", what, s)
	}
	b := v * mult
	if !(b >= 1 && b <= 1<<32) {
		return netem.Depth{}, fmt.Errorf("%s %q out of range [1B, 4GiB]", what, s)
	}
	return netem.Depth{Bytes: int(math.Round(b))}, nil
}

// set also accepts "bdp": one bandwidth-delay product, the engine's default.
func (q *queueSize) set(s string) error {
	if strings.TrimSpace(s) == "bdp" {
		*q = queueSize{}
		return nil
	}
	d, err := parseDepth(s, "queue")
	if err != nil {
		return fmt.Errorf("%w, or bdp", err)
	}
	*q = queueSize(d)
	return nil
}

func (t *threshold) set(s string) error {
	d, err := parseDepth(s, "threshold")
	*t = threshold(d)
	return err
}

// set reads "1,3,5"; an empty string is an empty list (clears a droplist).
func (d *dropIndices) set(s string) error {
	if strings.TrimSpace(s) == "" {
		*d = dropIndices{}
		return nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		i, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return fmt.Errorf("bad packet index %q in %q (want e.g. 1,3,5)", f, s)
		}
		if i < 1 {
			return fmt.Errorf("packet index %d in %q: indices start at 1", i, s)
		}
		out = append(out, i)
	}
	*d = out
	return nil
}

func (d *distribution) set(s string) error {
	v, err := netem.ParseDistribution(strings.TrimSpace(s))
	*d = distribution(v)
	return err
}

// set accepts the upstream spellings (both, toclient, toserver) and ours.
func (b *blackholeDir) set(s string) error {
	switch strings.TrimSpace(s) {
	case "both":
		*b = "both"
	case "toclient", "to_client", "to-client":
		*b = "to_client"
	case "toserver", "to_server", "to-server":
		*b = "to_server"
	default:
		return fmt.Errorf("unknown direction %q (want both, toclient or toserver)", s)
	}
	return nil
}

func (f *flag) set(s string) error {
	switch strings.TrimSpace(s) {
	case "true":
		*f = true
	case "false":
		*f = false
	default:
		return fmt.Errorf("bad boolean %q (want true or false)", s)
	}
	return nil
}

func (c *count) set(s string) error {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("bad count %q (want a whole number)", s)
	}
	if v < 0 || v > 1e6 {
		return fmt.Errorf("count %q out of range [0, 1000000]", s)
	}
	*c = count(v)
	return nil
}

func (b *burstLen) set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return fmt.Errorf("bad burst length %q (want a mean number of packets, e.g. 3)", s)
	}
	if !(v >= 1 && v <= 1e6) {
		return fmt.Errorf("burst length %q out of range [1, 1000000]", s)
	}
	*b = burstLen(v)
	return nil
}

// splitUnit splits "10Mbit" into "10" and "Mbit".
func splitUnit(s string) (num, unit string) {
	i := strings.IndexFunc(s, func(r rune) bool {
		return (r < '0' || r > '9') && r != '.' && r != '-' && r != '+'
	})
	if i < 0 {
		return s, ""
	}
	return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i:])
}

var errMissing = errors.New("missing value")
