#!/bin/bash
# repro.sh — `make fuzz-repro CRASH=<file>`: replay one input on the target's libFuzzer/ASan build and
# print the sanitizer report and signature. The target comes from the crash's meta/campaign files
# (out/fuzz/<target>/<engine>/<run>/crashes/<id>/...) or from TARGET=.
# Exit 1 when the input crashes (and says whether the signature matches the recorded one), 0 when it
# no longer crashes, 2 on bad input.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
CRASH=${CRASH:-}
[ -n "$CRASH" ] || die2 "make fuzz-repro: CRASH: not set (want CRASH=out/fuzz/<target>/<engine>/<run>/crashes/<id>/minimized)"
[ -f "$CRASH" ] || die2 "make fuzz-repro: CRASH: no such file '$CRASH'"
abs=$(cd "$(dirname "$CRASH")" && pwd)/$(basename "$CRASH")
d=$(dirname "$abs")
TARGET=${TARGET:-}
if [ -z "$TARGET" ]; then
  for c in "$d/../../campaign.json" "$d/../campaign.json"; do
    [ -f "$c" ] && TARGET=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["target"])' "$c") && break
  done
fi
[ -n "$TARGET" ] || die2 "make fuzz-repro: CRASH: '$CRASH' is not inside a campaign's crashes/ folder; set TARGET="
check_target "make fuzz-repro"
want=""; [ -f "$d/meta.json" ] && want=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$d/meta.json")
ensure_image

# The targets' strict switches pass through when set (WL_NGTCP2_STRICT=1: known ngtcp2 findings abort).
fuzz_docker "repro-$(new_run_id)" -v "$d:/crash:ro" -e TARGET="$TARGET" -e WANT="$want" -e NAME="$(basename "$abs")" \
  -e WL_NGTCP2_STRICT -e WL_DIFF_STRICT -- bash -c '
  /work/fuzz/build.sh ENGINE=libfuzzer TARGET="$TARGET" FUZZ_BUILD=/out/fuzz/build || exit 3
  ASAN_OPTIONS=symbolize=1:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    /out/fuzz/build/libfuzzer/"$TARGET" -runs=1 -timeout=25 "/crash/$NAME" >/tmp/report.txt 2>&1
  cat /tmp/report.txt
  if sig=$(python3 /work/fuzz/bin/signature.py /tmp/report.txt); then
    id=${sig%% *}
    if [ -z "$WANT" ]; then echo "fuzz-repro: reproduced: $sig"
    elif [ "$id" = "$WANT" ]; then echo "fuzz-repro: reproduced (same signature as recorded): $sig"
    else echo "fuzz-repro: crashes, but with a different signature than recorded ($WANT): $sig"; fi
    exit 1
  fi
  echo "fuzz-repro: no crash: $TARGET runs the input cleanly"
  exit 0'
