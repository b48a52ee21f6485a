package benchsuite

import "github.com/wirelab/wirelab/internal/simstats"

// SimDrops are the packets the sim dropped towards the client (the download direction) during
// one repetition, by cause: its queue overflowing (the link's buffer: what a congestion control
// that overshoots pays) and the profile's random loss.
type SimDrops struct {
	Queue uint64 `json:"queue"`
	Loss  uint64 `json:"loss"`
}

// ReadSimDrops reads them from the sim's final stats.json at path (written when the sim
// stopped, so only after the repetition was fenced); a live one is refused.
func ReadSimDrops(path string) (SimDrops, error) {
	st, err := simstats.ReadFile(path)
	if err != nil {
		return SimDrops{}, err
	}
	d := st.ToClient.Dropped
	return SimDrops{Queue: d.Queue, Loss: d.Loss + d.GELoss}, nil
}
