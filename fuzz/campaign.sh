#!/bin/bash
# campaign.sh — `make fuzz`: TARGET ENGINE DURATION JOBS from the environment. One campaign in the
# fuzz container writing $OUT/fuzz/<target>/<engine>/<run>/; with no TARGET a short campaign on every
# target (DURATION default 20s each, both engines unless ENGINE is set).
set -uo pipefail
source "$(dirname "$0")/lib.sh"
TARGET=${TARGET:-} ENGINE=${ENGINE:-} DURATION=${DURATION:-} JOBS=${JOBS:-1}

if [ -n "$TARGET" ]; then check_target "make fuzz"; targets=$TARGET; else targets=$(fuzz_targets); fi
case ${ENGINE:-libfuzzer} in libfuzzer|afl) ;; *) die2 "make fuzz: ENGINE: unknown engine '$ENGINE' (want libfuzzer or afl)" ;; esac
if [ -n "$TARGET" ]; then engines=${ENGINE:-libfuzzer}; else engines=${ENGINE:-libfuzzer afl}; fi
secs=$(duration_s "${DURATION:-$([ -n "$TARGET" ] && echo 60s || echo 20s)}") || exit 2
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || die2 "make fuzz: JOBS: bad value '$JOBS' (want a positive integer)"
ensure_image

rc=0 summary=()
for t in $targets; do
  for e in $engines; do
    run_id=$(new_run_id)
    rel=$OUT/fuzz/$t/$e/$run_id
    echo "fuzz: $t with $e for ${secs}s, $JOBS job(s): $rel"
    fuzz_docker "$run_id" -e TARGET="$t" -e ENGINE="$e" -e DURATION_S="$secs" -e JOBS="$JOBS" \
      -e RUN_DIR="/out/fuzz/$t/$e/$run_id" -e RUN_DIR_HOST="$rel" -e FUZZ_UNTIL_CRASH="${FUZZ_UNTIL_CRASH:-0}" \
      -e FUZZ_MINIMIZE_S="${FUZZ_MINIMIZE_S:-20}" -- /work/fuzz/bin/run-campaign.sh
    r=$?
    [ $r -eq 130 ] && exit 130
    case $r in
      0) n=$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["crashes"]; print(c["unique"], c["unique"]-c["new"])' "$OUT_ABS/fuzz/$t/$e/$run_id/stats.json" 2>/dev/null || echo "? ?")
         summary+=("$t/$e: ${n% *} unique crash(es), ${n#* } of them known findings, $rel/stats.json"); [ "${n% *}" = 0 ] || rc=1 ;;
      3) summary+=("$t/$e: SKIPPED (library source missing in the image)"); { [ -n "$TARGET" ] || in_ci; } && rc=3 ;;
      *) summary+=("$t/$e: FAILED (exit $r)"); rc=1 ;;
    esac
  done
done
printf 'fuzz: %s\n' "${summary[@]}"
exit $rc
