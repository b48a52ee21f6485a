package livefuzz

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/suite"
)

// answer is one line of a campaign's answers.jsonl: a shared seed and the server's answer.
type answer struct {
	Seed      string          `json:"seed"`
	Signature string          `json:"signature"`
	Judged    json.RawMessage `json:"judged"`
}

// seedAnswers reads a campaign's answers to the seeds no RFC rule judges (the valid and the
// unmodelled ones): those the differential oracle compares.
func seedAnswers(cell string) map[string]string {
	f, err := os.Open(filepath.Join(cell, fuzzOut, "answers.jsonl"))
	if err != nil {
		return nil
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var a answer
		if json.Unmarshal(sc.Bytes(), &a) == nil && (len(a.Judged) == 0 || string(a.Judged) == "null") {
			out[strings.TrimSuffix(a.Seed, ".json")] = a.Signature
		}
	}
	return out
}

// Differential holds each campaign's answers to the unjudged seeds against the other targets'
// answers in the same campaign: where three or more targets answered and most agree, a target
// answering otherwise gets a failed sub-case diff/<seed> naming the majority (which of them the
// RFC sides with is the triage's question: these seeds are the RFC's SHOULDs and MAYs).
func Differential(results []matrix.Result) []matrix.Result {
	type key struct{ campaign, seed string }
	byKey := map[key]map[string]string{} // target -> signature
	cells := map[int]map[string]string{}
	for i, r := range results {
		if r.Sub != "" || r.Dir == "" || r.Result == matrix.Unsupported {
			continue
		}
		a := seedAnswers(r.Dir)
		cells[i] = a
		for seed, sig := range a {
			k := key{r.Case, seed}
			if byKey[k] == nil {
				byKey[k] = map[string]string{}
			}
			byKey[k][r.Server] = sig
		}
	}
	var out []matrix.Result
	for i, r := range results {
		if strings.HasPrefix(r.Sub, "diff/") {
			continue // judged again below
		}
		a, ok := cells[i]
		if !ok {
			out = append(out, r)
			continue
		}
		seeds := make([]string, 0, len(a))
		for s := range a {
			seeds = append(seeds, s)
		}
		sort.Strings(seeds)
		var subs []matrix.Result
		for _, seed := range seeds {
			others := byKey[key{r.Case, seed}]
			maj, n := majority(others)
			if len(others) < 3 || maj == "" {
				continue
			}
			s := matrix.Result{Cell: r.Cell, Result: matrix.Succeeded, Reason: fmt.Sprintf("answered %s as %d of %d targets did", a[seed], n, len(others))}
			s.Cell.Sub = "diff/" + seed
			if a[seed] != maj {
				s.Result, s.Reason = matrix.Failed, fmt.Sprintf("answered %s; %d of %d targets answered %s (%s)", a[seed], n, len(others), maj, answersLine(others))
			}
			subs = append(subs, s)
		}
		failed := 0
		for _, s := range subs {
			if s.Result == matrix.Failed {
				failed++
			}
		}
		r.SubCases += len(subs)
		if failed > 0 {
			if r.Result == matrix.Succeeded {
				r.Reason = ""
			}
			r.Result, r.BySubs = matrix.Failed, true
			r.Reason = strings.TrimPrefix(r.Reason+fmt.Sprintf("; %d seeds answered unlike most targets", failed), "; ")
		}
		out = append(out, r)
		out = append(out, subs...)
	}
	return out
}

// majority is the answer more than half the targets gave ("" when none did) and how many gave it.
func majority(by map[string]string) (string, int) {
	count := map[string]int{}
	for _, s := range by {
		count[s]++
	}
	for s, n := range count {
		if 2*n > len(by) {
			return s, n
		}
	}
	return "", 0
}

func answersLine(by map[string]string) string {
	var ts []string
	for t := range by {
		ts = append(ts, t)
	}
	sort.Strings(ts)
	var parts []string
	for _, t := range ts {
		parts = append(parts, t+" "+by[t])
	}
	return strings.Join(parts, ", ")
}

// Reverdict implements suite.Reverdicter: the differential oracle over a journal's rows.
func (*Suite) Reverdict(results []matrix.Result) []matrix.Result { return Differential(results) }

// After implements suite.Matrix: the differential oracle across the targets, then each
// campaign's new corpus inputs into the corpus folder the next campaign starts from.
func (m *Matrix) After(_ context.Context, r *suite.Run, results []matrix.Result) ([]matrix.Result, error) {
	if m.traceTool != nil {
		m.traceTool.Close()
	}
	if m.replay != nil {
		return results, nil
	}
	if m.corpusDir != "none" {
		for _, res := range results {
			if res.Sub != "" || res.Dir == "" {
				continue
			}
			if err := copyJSONs(filepath.Join(res.Dir, fuzzOut, "corpus"), filepath.Join(m.corpusDir, res.Server, res.Case)); err != nil {
				return nil, err
			}
		}
	}
	return Differential(results), nil
}
