#!/usr/bin/env bash
# The coverage stage of `make test`: the real gates hold, and the gate machinery can fail.
#   1. `make coverage` with coverage/gates.yml passes and writes every report.
#   2. A gates file at 100% fails: exit 1, one "coverage gate FAILED: target metric measured <
#      threshold" line per metric below 100 (one C target and the Go target, to keep it short).
#   3. Malformed gates files exit 2 with one line naming the file and field, before anything runs.
#   4. `make coverage-ratchet` raises a low gate to the measured value rounded down to 0.5%,
#      and never lowers one.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-out}
MAKE=${MAKE:-make}
WIRELAB=${WIRELAB:-$OUT/bin/wirelab}
C_TARGET=${COVERAGE_TEST_TARGET:-nghttp3-qpack-decoder}
tmp=$(mktemp -d /tmp/wirelab-coverage-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "coverage/test.sh: FAIL: $*" >&2; exit 1; }
pass() { echo "coverage/test.sh: ok: $*"; }

# 1. The repository's gates.
$MAKE --no-print-directory coverage OUT="$OUT" || fail "make coverage with coverage/gates.yml failed"
sum=$OUT/coverage/summary.json
[ "$(jq -r .passed "$sum")" = true ] || fail "$sum: passed is not true"
for t in $(jq -r '.targets | keys[]' "$sum"); do
  for f in $(jq -r ".targets[\"$t\"].reports[]" "$sum"); do
    [ -s "$OUT/coverage/$f" ] || fail "$t: report $OUT/coverage/$f missing or empty"
  done
done
pass "make coverage: every gate holds, every report written ($(jq -r '.targets | keys | join(", ")' "$sum"))"

# 2. Every threshold at 100%: measured values below it must fail, one line each.
sed -E 's/^(    (lines|branches|functions)): *[0-9.]+/\1: 100/' coverage/gates.yml >"$tmp/gates-100.yml"
grep -q 'lines: 100' "$tmp/gates-100.yml" || fail "could not write $tmp/gates-100.yml"
$MAKE --no-print-directory coverage OUT="$tmp/out" GATES="$tmp/gates-100.yml" TARGETS="$C_TARGET,wirelab-go" \
  >"$tmp/100.out" 2>"$tmp/100.err"
rc=$?
[ $rc -ne 0 ] || fail "a gates file at 100% passed (make coverage exited 0)"
for t in "$C_TARGET" wirelab-go; do
  checked=0
  for m in lines branches functions; do
    got=$(jq -r ".targets[\"$t\"].gate.$m.percent // empty" "$tmp/out/coverage/summary.json")
    [ -n "$got" ] || continue # a metric the gates file leaves out is not gated
    checked=$((checked + 1))
    line=$(grep -E "^coverage gate FAILED: $t $m measured [0-9.]+% < threshold 100.0%$" "$tmp/100.err")
    if [ "$got" = 100 ]; then
      [ -z "$line" ] || fail "$t $m measured 100% but was reported broken"
    else
      [ -n "$line" ] || fail "$t $m measured $got% < 100%: no FAILED line in: $(cat "$tmp/100.err")"
      echo "  $line"
    fi
  done
  [ $checked -gt 0 ] || fail "$t: no gated metric in $tmp/out/coverage/summary.json: the 100% check tested nothing"
done
pass "gates at 100% fail with one line per broken metric"

# 3. Malformed gates files: exit 2, one line naming the field, nothing measured.
check_bad() { # NAME WANT-FIELD YAML
  printf '%s\n' "$3" >"$tmp/bad.yml"
  out=$("$WIRELAB" coverage --out "$tmp/bad-out" --gates "$tmp/bad.yml" 2>&1)
  rc=$?
  [ $rc -eq 2 ] || fail "$1: exit $rc, want 2 ($out)"
  [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || fail "$1: more than one line: $out"
  [[ $out == *"$tmp/bad.yml: $2: "* ]] || fail "$1: want the field $2 in: $out"
  [ ! -e "$tmp/bad-out/coverage/summary.json" ] || fail "$1: measured despite a bad gates file"
  echo "  $out"
}
check_bad "threshold over 100" "targets.wirelab-go.lines" $'targets:\n  wirelab-go: {kind: go, files: [x], lines: 101}'
check_bad "unknown field" "targets.wirelab-go.line" $'targets:\n  wirelab-go: {kind: go, files: [x], line: 50}'
check_bad "bad regexp" "targets.wirelab-go.files[0]" $'targets:\n  wirelab-go: {kind: go, files: [\'a(\'], lines: 5}'
check_bad "unknown fuzz target" "targets.no-such-target" $'targets:\n  no-such-target: {files: [x], lines: 5}'
pass "malformed gates files exit 2 naming the field"

# 4. The ratchet raises a low gate to the measurement (rounded down to 0.5%) and never lowers.
{ echo "targets:"; awk -v t="$C_TARGET" '
    /^  [a-z0-9_-]+:/ { on = ($1 == t ":") }
    on && /^    lines:/ { print "    lines: 1"; next }
    on && /^    branches:/ { print "    branches: 100"; next }
    on && /^    functions:/ { next }
    on { print }' coverage/gates.yml; } >"$tmp/gates-low.yml"
grep -q '^    lines: 1$' "$tmp/gates-low.yml" || fail "no lines gate for $C_TARGET in coverage/gates.yml"
$MAKE --no-print-directory coverage-ratchet OUT="$tmp/out" GATES="$tmp/gates-low.yml" TARGETS="$C_TARGET" \
  >"$tmp/ratchet.out" 2>&1
measured=$(jq -r ".targets[\"$C_TARGET\"].gate.lines | 100 * .covered / .total" "$tmp/out/coverage/summary.json")
want=$(awk -v p="$measured" 'BEGIN { v = int(p * 2) / 2; print v }')
got=$(sed -nE 's/^    lines: ([0-9.]+).*/\1/p' "$tmp/gates-low.yml")
[ "$got" = "$want" ] || fail "ratchet: lines $got, want $want (measured $measured): $(cat "$tmp/ratchet.out")"
grep -qE '^    branches: 100$' "$tmp/gates-low.yml" || fail "ratchet lowered branches from 100: $(cat "$tmp/gates-low.yml")"
pass "coverage-ratchet raised lines 1 -> $got (measured $measured%), kept branches at 100"
