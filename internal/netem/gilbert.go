package netem

import "fmt"

// GilbertElliott is the standard four-parameter bursty loss model, with
// netem's meaning of the parameters (tc-netem "loss gemodel p r 1-h 1-k"):
//
//	P: probability of moving Good -> Bad at a packet
//	R: probability of moving Bad -> Good at a packet
//	H: probability a packet is delivered in Bad  (1-H = loss in Bad)
//	K: probability a packet is delivered in Good (1-K = loss in Good)
//
// H=0, K=1 is the simple Gilbert model: every packet in Bad is lost and none
// in Good, so loss bursts are exactly the Bad sojourns.
type GilbertElliott struct {
	P, R, H, K float64
}

// GEFromBurst maps the simple "loss rate + mean burst length" form (like the
// upstream simulator's --rate_to_* with --burst_to_*) onto a Gilbert model:
//
//	R = 1/burst            (Bad sojourns are geometric with mean burst)
//	P = loss*R/(1-loss)    (so the stationary share of Bad, P/(P+R), is loss)
//	H = 0, K = 1
//
// Note the upstream simulator's burst is a cap on consecutive drops of
// otherwise independent losses; here it is the mean burst length, which is
// what a loss model can promise.
func GEFromBurst(loss, burst float64) (GilbertElliott, error) {
	if !(loss >= 0 && loss < 1) {
		return GilbertElliott{}, fmt.Errorf("loss %v must be in [0,1) for a burst model", loss)
	}
	if !(burst >= 1) {
		return GilbertElliott{}, fmt.Errorf("mean burst length %v must be >= 1", burst)
	}
	r := 1 / burst
	return GilbertElliott{P: loss * r / (1 - loss), R: r, H: 0, K: 1}, nil
}

// Validate checks that all four parameters are probabilities.
func (g GilbertElliott) Validate() error {
	for _, v := range []float64{g.P, g.R, g.H, g.K} {
		if !(v >= 0 && v <= 1) {
			return fmt.Errorf("gilbert-elliott parameter %v outside [0,1] in %+v", v, g)
		}
	}
	return nil
}

// LossRate is the stationary loss probability of the model.
func (g GilbertElliott) LossRate() float64 {
	if g.P+g.R == 0 {
		return 1 - g.K // never leaves Good
	}
	bad := g.P / (g.P + g.R)
	return (1-bad)*(1-g.K) + bad*(1-g.H)
}

// geState is the per-link Markov chain state.
type geState struct{ bad bool }

// step advances the chain with sample move, then decides loss with sample
// lose. Both samples are always consumed so the stream stays aligned.
func (s *geState) step(g *GilbertElliott, move, lose float64) bool {
	if g == nil {
		return false
	}
	if s.bad {
		if move < g.R {
			s.bad = false
		}
	} else if move < g.P {
		s.bad = true
	}
	if s.bad {
		return lose >= g.H
	}
	return lose >= g.K
}
