#!/usr/bin/env bash
# Measures one C fuzz target's coverage. Runs inside wirelab/fuzz (started by `wirelab coverage`)
# with the checkout read-only at /work and the report folder mounted:
#
#   coverage/measure.sh TARGET REPORT_DIR
#
# builds TARGET with fuzz/build.sh ENGINE=coverage (clang-19 --coverage, a replay driver instead
# of libFuzzer's main), replays fuzz/TARGET/corpus/ (the stored corpus only, never crash files),
# then has gcovr 7.2 write, for every measured file under /src (the library sources; harnesses
# live in /work and stay out): index.html (+ a page per file), cobertura.xml, summary.json,
# summary.txt and coverage.json (every line and branch: wirelab judges the gate from it, with
# gcovr --add-tracefile and --fail-under-*, in a second short container).
# Exit 0 when measured; non-zero when the target could not be built, a corpus input crashed the
# replay, or gcovr failed — the last line says which.
set -euo pipefail

target=${1:?usage: measure.sh TARGET REPORT_DIR}
report=${2:?usage: measure.sh TARGET REPORT_DIR}
corpus=/work/fuzz/$target/corpus
src_root=/src
gcov=(--gcov-executable "llvm-cov-19 gcov")

die() { echo "measure.sh: $target: $*" >&2; exit 1; }
[ -d "$corpus" ] || die "no stored corpus at fuzz/$target/corpus"

# /build persists between runs (fuzz/build.sh rebuilds a library only when its sources or flags
# change); counters of earlier replays are wiped first.
build=${COVERAGE_BUILD:-/build}
echo "== build $target (ENGINE=coverage) under $build"
bash /work/fuzz/build.sh ENGINE=coverage TARGET="$target" FUZZ_BUILD="$build" || die "fuzz/build.sh ENGINE=coverage failed"
driver=$build/coverage/$target
[ -x "$driver" ] || die "fuzz/build.sh left no replay driver at $driver"
find "$build" -name '*.gcda' -delete
# Only the libraries this target links (fuzz/<target>/libs): another target's objects in the
# shared build folder would show up as 0%.
search=()
for lib in $(cat "/work/fuzz/$target/libs"); do search+=("$build/coverage/lib/$lib"); done
[ ${#search[@]} -gt 0 ] || die "fuzz/$target/libs names no library"

# The stored corpus only: libFuzzer/AFL++ artifacts that may sit next to it are not replayed.
mapfile -d '' inputs < <(find "$corpus" -type f \
  ! -name 'crash-*' ! -name 'leak-*' ! -name 'timeout-*' ! -name 'oom-*' ! -name 'slow-unit-*' \
  ! -name 'README*' ! -name '.*' -print0 | sort -z)
[ ${#inputs[@]} -gt 0 ] || die "fuzz/$target/corpus holds no input"
echo "${#inputs[@]}" >"$report/corpus-files"
echo "== replay ${#inputs[@]} corpus files"
# One process per batch: gcov's counters are written at exit and add up across processes. When
# a batch fails, each of its files runs alone to name the input that crashes.
printf '%s\0' "${inputs[@]}" | xargs -0 -n 200 "$driver" >/dev/null 2>"$report/replay.err" || {
  for f in "${inputs[@]}"; do
    "$driver" "$f" >/dev/null 2>&1 || die "corpus input $f fails the replay (exit $?): a regression, see fuzz-repro"
  done
}

cd "$src_root"
echo "== gcovr: full report"
gcovr --root "$src_root" "${gcov[@]}" "${search[@]}" \
  --json "$report/coverage.json" \
  --json-summary "$report/summary.json" --json-summary-pretty \
  --cobertura "$report/cobertura.xml" --cobertura-pretty \
  --html-details "$report/index.html" --html-title "wirelab coverage: $target" \
  --txt "$report/summary.txt" --txt-metric branch \
  || die "gcovr failed"
# Lines and functions next to the branch table, so summary.txt shows all three metrics.
gcovr --add-tracefile "$report/coverage.json" --root "$src_root" --txt-metric line --txt - >>"$report/summary.txt"
grep -E '^(TOTAL|File) ' "$report/summary.txt"
