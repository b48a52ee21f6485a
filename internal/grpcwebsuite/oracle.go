package grpcwebsuite

import "github.com/wirelab/wirelab/internal/matrix"

// CompareWithDirect holds every converter chain's cell to the direct chain's outcome for the same
// server, client and case (the oracle): a chain that fails where direct passes lost gRPC
// semantics; a chain that passes where direct fails hid an error the server returned (a status
// turned into success), and fails too. Where both fail alike the reason says so.
func CompareWithDirect(results []matrix.Result) []matrix.Result {
	direct := map[string]matrix.Result{}
	for _, r := range results {
		if r.Get(AxisChain) == DirectChain {
			direct[r.Key()] = r
		}
	}
	out := make([]matrix.Result, len(results))
	for i, r := range results {
		out[i] = r
		d, ok := direct[r.With(AxisChain, DirectChain).Key()]
		if r.Get(AxisChain) == DirectChain || !ok || r.Result == matrix.Unsupported || d.Result == matrix.Unsupported {
			continue
		}
		switch {
		case r.Result == matrix.Succeeded && d.Result != matrix.Succeeded:
			out[i].Result = matrix.Failed
			out[i].Reason = "passed through the chain but failed direct (" + d.Reason + "): the chain changed the outcome"
		case r.Result != matrix.Succeeded && d.Result == matrix.Succeeded:
			out[i].Reason += " (passed direct)"
		case r.Result != matrix.Succeeded:
			out[i].Reason += " (failed direct too)"
		}
	}
	return out
}
