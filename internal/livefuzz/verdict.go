package livefuzz

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/wirelab/wirelab/internal/jsonfile"
	"github.com/wirelab/wirelab/internal/lifecycle"
	"github.com/wirelab/wirelab/internal/matrix"
	"github.com/wirelab/wirelab/internal/suite"
)

// stats is the client's stats.json (the fields the verdict reads).
type stats struct {
	Inputs         int                `json:"inputs"`
	Seeds          int                `json:"seeds"`
	InputsPerSec   float64            `json:"inputs_per_second"`
	Seconds        float64            `json:"seconds"`
	Corpus         int                `json:"corpus"`
	LivenessChecks int                `json:"liveness_checks"`
	Signatures     map[string]int     `json:"signatures"`
	Rules          map[string]ruleRun `json:"rules"`
	// CloseFrameType: the server's transport CONNECTION_CLOSEs whose Frame Type was checked,
	// and those naming no frame type at all (RFC 9000 §19.19)
	CloseFrameType *struct {
		Checked int `json:"checked"`
		Bogus   int `json:"bogus"`
	} `json:"close_frame_type"`
}

type ruleRun struct {
	Tried       int            `json:"tried"`
	Held        int            `json:"held"`
	Broken      int            `json:"broken"`
	FirstBroken string         `json:"first_broken"`
	Answers     map[string]int `json:"answers"` // what the server answered the inputs that broke the rule
}

// Oracle sub-cases every campaign reports (the RFC rules add one each, the seeds' comparison
// one per seed).
const (
	subCrash    = "oracle/crash"
	subLiveness = "oracle/liveness"
	subMemory   = "oracle/memory"
	subCPU      = "oracle/cpu"
	// a transport CONNECTION_CLOSE's Frame Type names the frame that caused it (RFC 9000 §19.19)
	subCloseFrameType = "rfc/close-frame-type"
)

// Verdict implements suite.Matrix: the campaign's findings as sub-cases, each a result and a
// baseline key — the crash, liveness, memory and CPU oracles, and each RFC rule the campaign
// tried (it fails when the server broke it at least once).
func (m *Matrix) Verdict(ctx context.Context, _ *suite.Run, cell matrix.Cell, ev lifecycle.Evidence) matrix.Result {
	if m.replay != nil {
		return m.replayVerdict(ctx, cell, ev)
	}
	res := matrix.Result{Result: matrix.Failed}
	var st stats
	statsErr := jsonfile.Read(filepath.Join(ev.Dir, fuzzOut, "stats.json"), &st)
	died := len(ev.PeerExits) > 0
	asan, asanErr := readASan(ev.Dir)
	if asanErr != nil {
		res.Reason = "the server's ASan report: " + asanErr.Error()
		return res
	}
	died = died || asan != nil
	if statsErr != nil && !died {
		res.Reason = fmt.Sprintf("the fuzzing client wrote no stats (exit %d): %s", ev.ClientExit, ev.ClientWords)
		return res
	}
	if ev.ClientExit != 0 && ev.ClientExit != -1 && !died {
		res.Reason = fmt.Sprintf("the fuzzing client exited %d: %s", ev.ClientExit, ev.ClientWords)
		return res
	}
	c := m.byCampaign[cell.Case]
	sub := func(name string, failed bool, reason string) matrix.Result {
		r := matrix.Result{Cell: cell, Result: matrix.Succeeded, Reason: reason}
		r.Cell.Sub = name
		if failed {
			r.Result = matrix.Failed
		}
		return r
	}
	var extra []*Finding
	if died {
		inputs, _ := recentInputs(ev.Dir)
		f, err := writeFinding(ev.Dir, crashFinding(cell, c, ev.PeerExits, asan, len(inputs)), inputs)
		if err == nil && asan != nil {
			err = copyFile(asan.File, filepath.Join(f.Dir, "asan.txt"))
		}
		if err != nil {
			res.Reason = err.Error()
			return res
		}
		extra = append(extra, f)
		res.Subs = append(res.Subs, sub(subCrash, true, f.Observed+" (make fuzz-repro FINDING="+f.Dir+")"))
	} else {
		res.Subs = append(res.Subs, sub(subCrash, false, "the server ran through the campaign"))
	}
	all := findings(ev.Dir)
	live := firstOf(all, "liveness")
	if live != nil {
		res.Subs = append(res.Subs, sub(subLiveness, true, live.Observed+" (make fuzz-repro FINDING="+live.Dir+")"))
	} else if !died {
		res.Subs = append(res.Subs, sub(subLiveness, false, fmt.Sprintf("served a second connection at each of %d checks", st.LivenessChecks)))
	}
	if !died {
		res.Subs = append(res.Subs, m.resourceSubs(ev.Dir, cell, c, sub)...)
	}
	byRule := map[string]*Finding{}
	for _, f := range all {
		if f.Oracle == "rfc" && byRule[f.Rule] == nil {
			byRule[f.Rule] = f
		}
	}
	ids := make([]string, 0, len(st.Rules))
	for id := range st.Rules {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		rr := st.Rules[id]
		if rr.Broken == 0 {
			res.Subs = append(res.Subs, sub("rfc/"+id, false, fmt.Sprintf("held in %d of %d inputs", rr.Held, rr.Tried)))
			continue
		}
		// the reason starts with what stays from run to run (the rule's demand, the kinds of
		// answer), so the baseline's signature of it holds; the example input comes last
		f := byRule[id]
		why := ""
		if f != nil {
			why = "want " + f.Expected + ", "
		}
		why += "answered " + answerKinds(rr.Answers, f) + fmt.Sprintf(": broken in %d of %d inputs", rr.Broken, rr.Tried)
		if f != nil {
			why += fmt.Sprintf("; e.g. sent %s, got %s (%s; make fuzz-repro FINDING=%s)", f.Frame, f.Observed, f.Section, f.Dir)
		}
		res.Subs = append(res.Subs, sub("rfc/"+id, true, why))
	}
	if cf := st.CloseFrameType; cf != nil && cf.Checked > 0 {
		why := fmt.Sprintf("every one of %d transport CONNECTION_CLOSEs named a frame type", cf.Checked)
		if cf.Bogus > 0 {
			why = fmt.Sprintf("%d of %d transport CONNECTION_CLOSEs named no frame type at all (RFC 9000 §19.19)", cf.Bogus, cf.Checked)
			if f := firstOf(all, "close-frame-type"); f != nil {
				why += ": " + f.Observed + " (make fuzz-repro FINDING=" + f.Dir + ")"
			}
		}
		res.Subs = append(res.Subs, sub(subCloseFrameType, cf.Bogus > 0, why))
	}
	res.Values = []float64{st.InputsPerSec}
	n := len(findings(ev.Dir))
	res.Details = fmt.Sprintf("%d inputs (%.1f/s) in %.0f s, %d seeds, corpus %d, %d findings", st.Inputs, st.InputsPerSec, st.Seconds, st.Seeds, st.Corpus, n)
	var failed []string
	for _, s := range res.Subs {
		if s.Result == matrix.Failed {
			failed = append(failed, s.Sub)
		}
	}
	if len(failed) == 0 {
		res.Result, res.Reason = matrix.Succeeded, ""
		return res
	}
	res.BySubs = true
	res.Reason = fmt.Sprintf("%d of %d oracles and rules failed: %s", len(failed), len(res.Subs), strings.Join(failed, ", "))
	return res
}

// answerKinds lists what the server answered the inputs that broke a rule, most frequent first
// ("alive, dropped"); the example finding's answer when the client counted none.
func answerKinds(answers map[string]int, f *Finding) string {
	if len(answers) == 0 {
		if f != nil {
			return f.Observed
		}
		return "otherwise"
	}
	kinds := make([]string, 0, len(answers))
	for k := range answers {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool {
		if answers[kinds[i]] != answers[kinds[j]] {
			return answers[kinds[i]] > answers[kinds[j]]
		}
		return kinds[i] < kinds[j]
	})
	return strings.Join(kinds, ", ")
}

func firstOf(fs []*Finding, oracle string) *Finding {
	for _, f := range fs {
		if f.Oracle == oracle {
			return f
		}
	}
	return nil
}

// resourceSubs are the memory and CPU oracles, from what the lifecycle hooks measured.
func (m *Matrix) resourceSubs(dir string, cell matrix.Cell, c *Campaign, sub func(string, bool, string) matrix.Result) []matrix.Result {
	var res resources
	if err := jsonfile.Read(filepath.Join(dir, resourcesFile), &res); err != nil || !res.Measured || res.Memory.Samples == 0 {
		why := "not measured"
		if err != nil {
			why += ": " + err.Error()
		}
		return []matrix.Result{sub(subMemory, true, why), sub(subCPU, true, why)}
	}
	limit := int64(m.bounds.MemoryGrowthMiB * (1 << 20))
	grew := res.Memory.Peak - res.Memory.First
	mem := sub(subMemory, grew > limit, fmt.Sprintf("grew %.1f MiB over its first sample (%.1f -> peak %.1f MiB, %d samples; bound %g MiB)",
		float64(grew)/(1<<20), float64(res.Memory.First)/(1<<20), float64(res.Memory.Peak)/(1<<20), res.Memory.Samples, m.bounds.MemoryGrowthMiB))
	cpu := sub(subCPU, res.IdleCPU > m.bounds.IdleCPULimit, cpuWords(res, m.bounds.IdleCPULimit))
	// a resource finding builds up over the campaign: the last inputs are what there is to replay
	recent, _ := recentInputs(dir)
	var out []matrix.Result
	for _, s := range []matrix.Result{mem, cpu} {
		if s.Result == matrix.Failed {
			_, _ = writeFinding(dir, &Finding{Oracle: strings.TrimPrefix(s.Sub, "oracle/"), Signature: s.Sub, Target: cell.Server,
				Campaign: c.Name, ALPN: c.ALPN, Observed: s.Reason}, recent)
		}
		out = append(out, s)
	}
	return out
}

// cpuWords says what the CPU oracle measured: the window after the fuzzer stopped, and when
// that one was busy, the window after the fuzzed connections' idle timeout.
func cpuWords(res resources, bound float64) string {
	if res.BusyAtStop > 0 {
		return fmt.Sprintf("%.2f cores busy in the %s after the fuzzed connections' idle timeout (%s; %.2f right after the fuzzer stopped; bound %g)",
			res.IdleCPU, idleWindow, fuzzIdleTimeout, res.BusyAtStop, bound)
	}
	return fmt.Sprintf("%.2f cores busy in the %s after the fuzzer stopped (bound %g)", res.IdleCPU, idleWindow, bound)
}
