#!/usr/bin/env bash
# Every documented make target's DEFAULT invocation, as far as it goes without a long run: each
# registered suite's target with PLAN=1 (loads its cases, manifests, chains and baseline, prints
# the plan, starts nothing), make help, list and versions; the targets that need a variable say
# so in one line instead of starting anything. A default that cannot start fails `make test`.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-out}
WIRELAB=${WIRELAB:-$OUT/bin/wirelab}
fail=0
run() { # run NAME COMMAND...: must exit 0
  local out
  if out=$("${@:2}" 2>&1); then
    echo "defaults: $1: ok ($(printf '%s\n' "$out" | grep -c .) lines)"
  else
    echo "defaults: $1: FAILED (exit $?)"; printf '%s\n' "$out" | tail -20; fail=1
  fi
}
refuses() { # refuses NAME WANT COMMAND...: must fail with one line containing WANT
  local out
  if out=$("${@:3}" 2>&1); then
    echo "defaults: $1: started without its variable"; fail=1
  elif ! grep -q -- "$2" <<<"$out" || grep -qi "panic" <<<"$out"; then
    echo "defaults: $1: did not refuse with \"$2\":"; printf '%s\n' "$out" | tail -5; fail=1
  else
    echo "defaults: $1: refused as it should (\"$2\")"
  fi
}
run "make help" make -s help
run "make list" make -s list
run "make versions" make -s versions
for target in $("$WIRELAB" suites | awk '{print $3}'); do
  run "make $target PLAN=1" make -s "$target" PLAN=1
done
refuses "make baseline" "--suite" make -s baseline
refuses "make merge" "--run-id: required" make -s merge
refuses "make fuzz-repro" "CRASH" make -s fuzz-repro
refuses "make fuzz-seeds" "RUN: not set" make -s fuzz-seeds
refuses "make fuzz-table" "RUNS: not set" make -s fuzz-table
exit $fail
