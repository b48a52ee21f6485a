package quicinterop

import (
	"testing"

	"github.com/wirelab/wirelab/internal/matrix"
)

func TestSummaryIsClientMajorLikeUpstream(t *testing.T) {
	cases := []*Case{{Name: "handshake", Abbr: "H"}, {Name: "transfer", Abbr: "DC"}}
	res := []matrix.Result{
		{Cell: matrix.Cell{Server: "s1", Client: "c2", Case: "transfer"}, Result: matrix.Failed},
		{Cell: matrix.Cell{Server: "s2", Client: "c1", Case: "handshake"}, Result: matrix.Succeeded},
	}
	s := Summarize(cases, []string{"c1", "c2"}, []string{"s1", "s2"}, res, nil)
	// pairs: c1-s1, c1-s2, c2-s1, c2-s2
	if len(s.Results) != 4 || len(s.Results[1]) != 1 || s.Results[1][0].Abbr != "H" || s.Results[2][0].Result != matrix.Failed {
		t.Fatalf("%+v", s.Results)
	}
	if s.Tests["DC"].Name != "transfer" || s.QUICVersion != "0x1" {
		t.Fatalf("%+v", s.Tests)
	}
}

func TestMeasurementsGoToTheirOwnListLikeUpstream(t *testing.T) {
	cases := []*Case{{Name: "handshake", Abbr: "H"}, {Name: "goodput", Abbr: "G", Measure: "goodput", Repetitions: 5}}
	res := []matrix.Result{
		{Cell: matrix.Cell{Server: "s", Client: "c", Case: "handshake"}, Result: matrix.Succeeded},
		{Cell: matrix.Cell{Server: "s", Client: "c", Case: "goodput"}, Result: matrix.Succeeded, Values: []float64{9000, 9100}, Details: measurementDetails([]float64{9000, 9100})},
	}
	s := Summarize(cases, []string{"c"}, []string{"s"}, res, nil)
	if len(s.Results[0]) != 1 || len(s.Measurements[0]) != 1 || s.Measurements[0][0]["details"] != "9050 (± 71) kbps" {
		t.Fatalf("results %+v measurements %+v", s.Results, s.Measurements)
	}
	if _, listed := s.Tests["G"]; listed {
		t.Fatal("upstream's tests map holds test cases only")
	}
	if measurementDetails([]float64{8000}) != "8000 (± 0) kbps" {
		t.Fatal(measurementDetails([]float64{8000}))
	}
}
