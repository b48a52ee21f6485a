#!/usr/bin/env bash
# `make test`: every stage CI runs, each timed. Stops at the first failing stage; always prints
# the timing table and writes it to $OUT/test/timings.tsv.
set -uo pipefail
cd "$(dirname "$0")/.."

OUT=${OUT:-out}
GO=${GO:-go}
WIRELAB="$OUT/bin/wirelab"
mkdir -p "$OUT/test"
timings="$OUT/test/timings.tsv"
printf 'stage\tseconds\tresult\n' >"$timings"
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
total_start=$(now)

stage() { # stage NAME COMMAND...
  local name=$1 start rc secs
  shift
  echo "=== stage $name: $*"
  start=$(now)
  "$@"
  rc=$?
  secs=$(elapsed "$start")
  printf '%s\t%s\t%s\n' "$name" "$secs" "$([ $rc = 0 ] && echo ok || echo FAILED)" >>"$timings"
  printf '=== stage %s: %ss %s\n' "$name" "$secs" "$([ $rc = 0 ] && echo ok || echo "FAILED (exit $rc)")"
  if [ $rc != 0 ]; then
    summary
    exit $rc
  fi
}

summary() {
  echo
  echo "stage timings ($timings):"
  awk -F'\t' '{ printf "  %-12s %8s  %s\n", $1, $2, $3 }' "$timings"
  echo "  total        $(elapsed "$total_start")s"
}

# The Go test stages. Each runs only tests whose prerequisites exist by then, so none may skip:
#  - unit (before the images): every package but those whose tests run tshark, and without the
#    TestIntegration tests (go test -skip; their opt-in gate, prereq.Integration, would skip them);
#  - traces (after the images): the packages whose tests run tshark (they import tsharktest);
#  - integration: the TestIntegration tests, against the engine and the built images.
# Leaving tests out by name and package (rather than letting them skip) is what lets the no-skip
# check apply to every Go stage: any "--- SKIP" line fails its stage (gotest below), whatever the
# reason, so a test that lost its prerequisite, or a stage order that no longer provides it,
# cannot pass silently. The tests themselves also fail in CI for a missing prerequisite
# (internal/prereq); the check is the backstop for a skip that does not go through it.
module=$($GO list -m)
integration='^TestIntegration' # prereq.IntegrationPrefix; a gated test with another name fails

# gotest STAGE ARGS...: go test -v ARGS, the full output in $OUT/test/STAGE.log, the console without
# the === RUN/PAUSE/CONT/NAME lines and the subtests' PASS lines; fails on a failing test or on
# any skipped one.
gotest() {
  local log="$OUT/test/$1.log" rc skips
  shift
  $GO test -count=1 -v "$@" 2>&1 | tee "$log" | grep -vE '^ *=== (RUN|PAUSE|CONT|NAME) |^ +--- PASS: '
  rc=${PIPESTATUS[0]}
  skips=$(grep -E -B1 '^ *--- SKIP: ' "$log") # the line before says why
  if [ -n "$skips" ]; then
    echo "no-skip check: $(grep -cE '^ *--- SKIP: ' "$log") test(s) skipped in this stage ($log); every test here must run:"
    sed 's/^/  | /' <<<"$skips"
    [ $rc != 0 ] || rc=1
  fi
  return $rc
}

# tshark_packages: the packages whose tests import tsharktest (they need the tshark image).
tshark_packages() {
  $GO list -f '{{.ImportPath}} {{join .TestImports " "}} {{join .XTestImports " "}}' ./... |
    awk -v t="$module/internal/tshark/tsharktest" '{ for (i = 2; i <= NF; i++) if ($i == t) { print $1; next } }'
}
# integration_packages: the packages with TestIntegration tests.
integration_packages() {
  local d
  for d in $($GO list -f '{{.Dir}}' ./...); do
    grep -qs '^func TestIntegration' "$d"/*_test.go && echo "./${d#"$PWD"/}"
  done
}

unit_tests() {
  local tshark
  tshark=$(tshark_packages) || return
  gotest unit -skip "$integration" $($GO list ./... | grep -vxF -f <(printf '%s\n' $tshark))
}
trace_tests() ( # WIRELAB_INTEGRATION=1: tsharktest fails without the image, in CI or not
  local pkgs
  pkgs=$(tshark_packages) || return
  [ -n "$pkgs" ] || { echo "traces: no package's tests import tsharktest: nothing to run"; return 1; }
  export WIRELAB_INTEGRATION=1
  gotest traces -skip "$integration" $pkgs
)
integration_tests() (
  local pkgs
  pkgs=$(integration_packages)
  [ -n "$pkgs" ] || { echo "integration: no package has a TestIntegration test: nothing to run"; return 1; }
  export WIRELAB_INTEGRATION=1 WIRELAB_BIN="$PWD/$WIRELAB"
  gotest integration -timeout 30m -p 1 -run "$integration" $pkgs
)

stage vet         $GO vet ./...
stage unit        unit_tests
stage cli         $GO build -o "$WIRELAB" ./cmd/wirelab
stage defaults    env OUT="$OUT" WIRELAB="$WIRELAB" bash ci/defaults.sh
stage images      "$WIRELAB" images --out "$OUT"
stage setup       bash ci/test-setup.sh
stage traces      trace_tests
stage go-fuzz     env OUT="$OUT" bash fuzz/go/run.sh 3s
stage integration integration_tests
stage fuzz        env OUT="$OUT" bash fuzz/test.sh
stage coverage    env OUT="$OUT" bash coverage/test.sh
summary
