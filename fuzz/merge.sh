#!/bin/bash
# merge.sh — `make fuzz-merge TARGET=<t> [RUN=<run dir> | SEEDS=<folder>]`: merge a campaign's corpus
# (default: the newest campaign of TARGET, either engine), or any folder of inputs (SEEDS=, e.g. the
# trace seeds of `make fuzz-seeds`), into fuzz/<target>/corpus with libFuzzer's -merge=1, which keeps
# only inputs that add coverage, so the stored corpus stays minimized. CORPUS= merges into another
# folder instead (a copy of the corpus: what a merge would add, without touching the stored one).
set -uo pipefail
source "$(dirname "$0")/lib.sh"
TARGET=${TARGET:-} RUN=${RUN:-} SEEDS=${SEEDS:-} CORPUS=${CORPUS:-}
[ -n "$TARGET" ] || die2 "make fuzz-merge: TARGET: not set (have: $(fuzz_targets all | tr '\n' ' '))"
check_target "make fuzz-merge"
if [ -n "$SEEDS" ]; then
  [ -z "$RUN" ] || die2 "make fuzz-merge: SEEDS: give SEEDS= or RUN=, not both"
  [ -d "$SEEDS" ] || die2 "make fuzz-merge: SEEDS: no such folder '$SEEDS'"
  [ -n "$(ls -A "$SEEDS")" ] || die2 "make fuzz-merge: SEEDS: '$SEEDS' is empty"
  NEW=$(cd "$SEEDS" && pwd)
else
  if [ -z "$RUN" ]; then
    RUN=$(ls -d "$OUT_ABS/fuzz/$TARGET"/*/*/corpus 2>/dev/null | xargs -r -n1 dirname | while read -r r; do echo "$(basename "$r") $r"; done | sort | tail -n1 | cut -d' ' -f2)
    [ -n "$RUN" ] || die2 "make fuzz-merge: RUN: no campaign of $TARGET under $OUT/fuzz/$TARGET"
  fi
  [ -d "$RUN/corpus" ] || die2 "make fuzz-merge: RUN: '$RUN' has no corpus/ folder"
  NEW=$(cd "$RUN/corpus" && pwd)
fi
if [ -n "$CORPUS" ]; then
  [ -d "$CORPUS" ] || die2 "make fuzz-merge: CORPUS: no such folder '$CORPUS'"
  CORPUS=$(cd "$CORPUS" && pwd)
else
  CORPUS=$FUZZ_DIR/$TARGET/corpus
  mkdir -p "$CORPUS"
fi
ensure_image
before=$(ls "$CORPUS" | wc -l)
fuzz_docker "merge-$(new_run_id)" -v "$CORPUS:/work/fuzz/$TARGET/corpus" -v "$NEW:/new:ro" -e TARGET="$TARGET" -- bash -c '
  /work/fuzz/build.sh ENGINE=libfuzzer TARGET="$TARGET" FUZZ_BUILD=/out/fuzz/build || exit 3
  /out/fuzz/build/libfuzzer/"$TARGET" -merge=1 -timeout=25 /work/fuzz/"$TARGET"/corpus /new 2>&1 | grep -E "MERGE-OUTER: [0-9]+ new files|ERROR" '
rc=$?
echo "fuzz-merge: $TARGET: $before -> $(ls "$CORPUS" | wc -l) files in ${CORPUS#"$REPO"/} (from $(ls "$NEW" | wc -l) inputs in $NEW)"
exit $rc
