#!/bin/bash
# merge.sh — `make fuzz-merge TARGET=<t> [RUN=<run dir>]`: merge a campaign's corpus (default: the
# newest campaign of TARGET, either engine) into fuzz/<target>/corpus with libFuzzer's -merge=1, which
# keeps only inputs that add coverage, so the stored corpus stays minimized.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
TARGET=${TARGET:-} RUN=${RUN:-}
[ -n "$TARGET" ] || die2 "make fuzz-merge: TARGET: not set (have: $(fuzz_targets all | tr '\n' ' '))"
check_target "make fuzz-merge"
if [ -z "$RUN" ]; then
  RUN=$(ls -d "$OUT_ABS/fuzz/$TARGET"/*/*/corpus 2>/dev/null | xargs -r -n1 dirname | while read -r r; do echo "$(basename "$r") $r"; done | sort | tail -n1 | cut -d' ' -f2)
  [ -n "$RUN" ] || die2 "make fuzz-merge: RUN: no campaign of $TARGET under $OUT/fuzz/$TARGET"
fi
[ -d "$RUN/corpus" ] || die2 "make fuzz-merge: RUN: '$RUN' has no corpus/ folder"
RUN=$(cd "$RUN" && pwd)
ensure_image
mkdir -p "$FUZZ_DIR/$TARGET/corpus"
before=$(ls "$FUZZ_DIR/$TARGET/corpus" | wc -l)
fuzz_docker "merge-$(new_run_id)" -v "$FUZZ_DIR/$TARGET/corpus:/work/fuzz/$TARGET/corpus" -v "$RUN/corpus:/new:ro" -e TARGET="$TARGET" -- bash -c '
  /work/fuzz/build.sh ENGINE=libfuzzer TARGET="$TARGET" FUZZ_BUILD=/out/fuzz/build || exit 3
  /out/fuzz/build/libfuzzer/"$TARGET" -merge=1 -timeout=25 /work/fuzz/"$TARGET"/corpus /new 2>&1 | grep -E "MERGE-OUTER: [0-9]+ new files|ERROR" '
rc=$?
echo "fuzz-merge: $TARGET: $before -> $(ls "$FUZZ_DIR/$TARGET/corpus" | wc -l) files in fuzz/$TARGET/corpus (from $RUN)"
exit $rc
