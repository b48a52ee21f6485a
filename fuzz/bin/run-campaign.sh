#!/bin/bash
# run-campaign.sh — inside wirelab/fuzz: build TARGET for ENGINE, fuzz for DURATION_S seconds with JOBS
# processes, print live stats, then triage crashes. Started by fuzz/campaign.sh with these variables:
#   TARGET ENGINE(libfuzzer|afl) DURATION_S JOBS RUN_DIR (in the container) RUN_DIR_HOST (for messages)
#   FUZZ_UNTIL_CRASH=1 stops at the first crash (the pipeline test); FUZZ_BUILD is the build cache.
set -uo pipefail
FUZZ=$(cd "$(dirname "$0")/.." && pwd)
: "${TARGET:?}" "${ENGINE:?}" "${DURATION_S:?}" "${JOBS:?}" "${RUN_DIR:?}"
RUN_DIR_HOST=${RUN_DIR_HOST:-$RUN_DIR}
export FUZZ_BUILD=${FUZZ_BUILD:-/out/fuzz/build}

build() { "$FUZZ/build.sh" ENGINE="$1" TARGET="$TARGET"; local rc=$?; [ $rc -eq 0 ] || { echo "fuzz: build of $TARGET for $1 failed" >&2; exit $rc; }; }
build libfuzzer  # every campaign triages with the libFuzzer/ASan build, so signatures match across engines
if [ "$ENGINE" = afl ]; then build afl; build cmplog; fi

SEEDS=$FUZZ/$TARGET/corpus
DICT=$FUZZ/$TARGET/$TARGET.dict
OPTS=$FUZZ/$TARGET/$TARGET.options
mkdir -p "$RUN_DIR"/{log,raw,corpus,crashes}
python3 - "$RUN_DIR/campaign.json" <<PY
import json, sys, time
src = open("/src/SOURCES.txt").read().split("\n") if __import__("os").path.exists("/src/SOURCES.txt") else []
json.dump({"target": "$TARGET", "engine": "$ENGINE", "run": "$(basename "$RUN_DIR")", "duration_s": $DURATION_S,
           "jobs": $JOBS, "started_unix": time.time(), "sources": [l for l in src if l]}, open(sys.argv[1], "w"), indent=1)
PY
touch "$RUN_DIR/.fuzzing"
python3 "$FUZZ/bin/stats.py" watch "$RUN_DIR" & watcher=$!

# [libfuzzer] key = value lines of <target>.options become -key=value flags.
lf_opts() { [ -f "$OPTS" ] && awk '/^\[/{s=($0=="[libfuzzer]")} s && /=/{gsub(/ /,""); print "-"$0}' "$OPTS"; }

run_libfuzzer_worker() {
  local i=$1 seg=0 deadline=$(( $(date +%s) + DURATION_S )) left rc
  while left=$(( deadline - $(date +%s) )); [ "$left" -gt 0 ]; do
    # shellcheck disable=SC2046 # options are separate flags
    "$FUZZ_BUILD/libfuzzer/$TARGET" -max_total_time="$left" -timeout=10 -print_final_stats=1 \
      -artifact_prefix="$RUN_DIR/raw/" $([ -f "$DICT" ] && echo "-dict=$DICT") $(lf_opts) \
      "$RUN_DIR/corpus" "$SEEDS" >"$RUN_DIR/log/worker-$i.$seg.log" 2>&1 &
    echo $! >"$RUN_DIR/.pid-$i"
    wait $!; rc=$?
    [ $rc -eq 0 ] && break                      # time is up
    [ "${FUZZ_UNTIL_CRASH:-0}" = 1 ] && return 1 # stop everything at the first crash
    seg=$((seg + 1))                            # crash/leak/timeout saved in raw/: restart and go on
  done
  return 0
}

run_libfuzzer() {
  local pids=() i
  for i in $(seq 1 "$JOBS"); do run_libfuzzer_worker "$i" & pids+=($!); done
  if [ "${FUZZ_UNTIL_CRASH:-0}" = 1 ]; then
    wait -n "${pids[@]}"
    for i in $(seq 1 "$JOBS"); do kill "$(cat "$RUN_DIR/.pid-$i")" 2>/dev/null; done; kill "${pids[@]}" 2>/dev/null
  fi
  wait "${pids[@]}" # not a bare wait: the stats watcher is a child too
}

run_afl() {
  local pids=() i
  export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1 \
         AFL_IGNORE_SEED_PROBLEMS=1 AFL_FAST_CAL=1 AFL_CMPLOG_ONLY_NEW=1
  [ "${FUZZ_UNTIL_CRASH:-0}" = 1 ] && export AFL_BENCH_UNTIL_CRASH=1
  local common=(-i "$SEEDS" -o "$RUN_DIR/afl" -V "$DURATION_S" -t 1000)
  [ -f "$DICT" ] && common+=(-x "$DICT")
  afl-fuzz "${common[@]}" -M main -c "$FUZZ_BUILD/cmplog/$TARGET" -- "$FUZZ_BUILD/afl/$TARGET" \
    >"$RUN_DIR/log/afl-main.log" 2>&1 & pids+=($!)
  for i in $(seq 2 "$JOBS"); do
    afl-fuzz "${common[@]}" -S "s$i" -- "$FUZZ_BUILD/afl/$TARGET" >"$RUN_DIR/log/afl-s$i.log" 2>&1 & pids+=($!)
  done
  if [ "${FUZZ_UNTIL_CRASH:-0}" = 1 ]; then wait -n "${pids[@]}"; kill -INT "${pids[@]}" 2>/dev/null; fi
  wait "${pids[@]}"
  # The campaign corpus, in the same place as libFuzzer's: the main instance's queue.
  find "$RUN_DIR/afl" -path '*/queue/id:*' -type f -exec cp -t "$RUN_DIR/corpus" {} + 2>/dev/null
  grep -l 'PROGRAM ABORT' "$RUN_DIR"/log/afl-*.log >/dev/null && { echo "fuzz: afl-fuzz aborted:" >&2; grep -h -A3 'PROGRAM ABORT' "$RUN_DIR"/log/afl-*.log >&2; }
}

start=$(date +%s)
"run_$ENGINE"
rm -f "$RUN_DIR/.fuzzing" "$RUN_DIR"/.pid-*
wait "$watcher"
echo "fuzz: fuzzing took $(( $(date +%s) - start ))s; triaging crashes" >&2
"$FUZZ/bin/triage.sh" "$RUN_DIR" "$RUN_DIR_HOST"
python3 "$FUZZ/bin/stats.py" final "$RUN_DIR"
