#!/bin/bash
# Runs every Go native fuzz target in fuzz/go/targets.txt (or those named in GO_TARGETS) for
# FUZZTIME each and prints execs/s; a failure leaves the crasher in the package's
# testdata/fuzz/<Target>/ (go test's own format) and exits 1.
# Usage: fuzz/go/run.sh [FUZZTIME]   e.g. fuzz/go/run.sh 60s
set -uo pipefail
cd "$(dirname "$0")/../.."
fuzztime=${1:-${FUZZTIME:-30s}}
[[ $fuzztime =~ ^[0-9]+(s|m|h|x)$ ]] || { echo "fuzz/go/run.sh: FUZZTIME '$fuzztime': want e.g. 30s, 5m or 10000x" >&2; exit 2; }
for t in ${GO_TARGETS:-}; do # a name that selects nothing would run nothing and pass
  grep -qE "^[^#].*[[:space:]]$t\$" fuzz/go/targets.txt || { echo "fuzz/go/run.sh: GO_TARGETS: '$t' is not in fuzz/go/targets.txt" >&2; exit 2; }
done
out=${OUT:-out}/fuzz/go
mkdir -p "$out"
printf 'target\tpackage\texecs\texecs_per_s\tnew_interesting\tresult\n' > "$out/summary.tsv"
status=0
while read -r pkg target; do
  [[ -z $pkg || $pkg == \#* ]] && continue
  [[ -n ${GO_TARGETS:-} && " $GO_TARGETS " != *" $target "* ]] && continue
  log="$out/${pkg##*/}-$target.log"
  fuzz() { go test "$pkg" -run '^$' -fuzz "^$target\$" -fuzztime "$fuzztime" > "$log" 2>&1; }
  # go test -fuzz now and then ends a run with "context deadline exceeded" when -fuzztime runs
  # out while a worker is busy, without any failing input: that is the engine, not the target,
  # so such a run (and only such a run) is tried once more.
  spurious() { grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written to' "$log"; }
  if fuzz || { spurious && echo "$target: go's fuzz engine hit its deadline without a failing input; once more" && fuzz; }; then
    result=ok
  else
    result=FAILED; status=1
  fi
  # go test prints "fuzz: elapsed: 30s, execs: 212566 (7085/sec), new interesting: 35 (total: 36)"
  last=$(grep -E '^fuzz: elapsed: .*execs' "$log" | tail -n1)
  execs=$(sed -nE 's/.*execs: ([0-9]+) .*/\1/p' <<<"$last")
  # A target that matches nothing (renamed, removed) makes go test say "no fuzz tests to fuzz"
  # and exit 0 without a "fuzz: elapsed" line: it fails instead of passing unfuzzed.
  if [[ $result == ok ]] && ! grep -q '^fuzz: elapsed: ' "$log"; then
    echo "$target: go test fuzzed nothing in $pkg ($(grep -m1 -E 'no fuzz tests|warning' "$log" || echo 'no fuzz: line'))"
    result=FAILED; status=1
  fi
  elapsed=$(sed -nE 's/^fuzz: elapsed: ([0-9]+)s.*/\1/p' <<<"$last")
  rate=$([[ -n $execs && ${elapsed:-0} -gt 0 ]] && echo $((execs / elapsed)))  # go test's own "(N/sec)" is the last 3 s only
  new=$(sed -nE 's/.*new interesting: ([0-9]+).*/\1/p' <<<"$last")
  printf '%-26s %-20s %10s execs %8s/s  %4s new  %s\n' "$target" "$pkg" "${execs:-?}" "${rate:-?}" "${new:-?}" "$result"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$target" "$pkg" "${execs:-}" "${rate:-}" "${new:-}" "$result" >> "$out/summary.tsv"
  [[ $result == ok ]] || grep -v '^fuzz: elapsed' "$log" | head -20
done < fuzz/go/targets.txt
exit $status
