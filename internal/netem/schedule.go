package netem

import (
	"errors"
	"fmt"
	"time"
)

// DirParams are the Params of both directions.
type DirParams struct {
	ToServer Params
	ToClient Params
}

// For returns the Params of dir.
func (d DirParams) For(dir Direction) Params {
	if dir == ToClient {
		return d.ToClient
	}
	return d.ToServer
}

// Phase is one step of a Schedule: from At on, the links use Links.
type Phase struct {
	At    time.Duration
	Name  string // for logs and stats, e.g. the profile it came from
	Links DirParams
}

// Schedule is a time-varying link: phases in strictly increasing At, the
// first at 0. A one-phase Schedule is a static link.
type Schedule []Phase

// Static is the Schedule of a link that never changes.
func Static(name string, p DirParams) Schedule {
	return Schedule{{At: 0, Name: name, Links: p}}
}

// Validate checks ordering and every phase's Params.
func (s Schedule) Validate() error {
	if len(s) == 0 {
		return errors.New("netem: empty schedule")
	}
	if s[0].At != 0 {
		return fmt.Errorf("netem: schedule starts at %v, want 0", s[0].At)
	}
	for i, ph := range s {
		if i > 0 && ph.At <= s[i-1].At {
			return fmt.Errorf("netem: schedule phase %d at %v is not after %v", i, ph.At, s[i-1].At)
		}
		for _, dir := range Directions {
			if err := ph.Links.For(dir).Validate(); err != nil {
				return fmt.Errorf("netem: schedule phase %d (%s) %s: %w", i, ph.Name, dir, err)
			}
		}
	}
	return nil
}
