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

stage vet         $GO vet ./...
stage unit        $GO test -count=1 ./...
stage cli         $GO build -o "$WIRELAB" ./cmd/wirelab
stage images      "$WIRELAB" images --out "$OUT"
stage setup       bash ci/test-setup.sh
stage traces      env WIRELAB_INTEGRATION=1 $GO test -count=1 ./internal/quictrace/ ./internal/quiccheck/
stage go-fuzz     env OUT="$OUT" bash fuzz/go/run.sh 3s
stage integration env WIRELAB_INTEGRATION=1 WIRELAB_BIN="$PWD/$WIRELAB" $GO test -count=1 -v -timeout 30m -p 1 -run Integration ./cmd/wirelab/ ./internal/topology/
stage fuzz        env OUT="$OUT" bash fuzz/test.sh
stage coverage    env OUT="$OUT" bash coverage/test.sh
summary
