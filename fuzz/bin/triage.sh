#!/bin/bash
# triage.sh RUN_DIR [RUN_DIR_HOST] — deduplicate a campaign's crashes by sanitizer stack signature,
# minimize one input per signature (libFuzzer -minimize_crash, or afl-tmin for AFL++ campaigns), and
# write RUN_DIR/crashes/<id>/{input,minimized,stack.txt,meta.json,reproduce.txt}. Every input is
# replayed on the libFuzzer/ASan build so both engines' crashes get comparable signatures.
set -uo pipefail
FUZZ=$(cd "$(dirname "$0")/.." && pwd)
RUN=$1 HOST_RUN=${2:-$1}
TARGET=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["target"])' "$RUN/campaign.json")
ENGINE=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["engine"])' "$RUN/campaign.json")
FUZZ_BUILD=${FUZZ_BUILD:-/out/fuzz/build}
LF=$FUZZ_BUILD/libfuzzer/$TARGET
MIN_S=${FUZZ_MINIMIZE_S:-20}
export ASAN_OPTIONS=${ASAN_OPTIONS:-symbolize=1:detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

if [ "$ENGINE" = afl ]; then
  mapfile -t raw < <(find "$RUN/afl" -path '*/crashes/id:*' -type f 2>/dev/null | sort)
else
  mapfile -t raw < <(find "$RUN/raw" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'oom-*' -o -name 'timeout-*' \) 2>/dev/null | sort)
fi
[ ${#raw[@]} -eq 0 ] && { echo "triage: no crashes"; exit 0; }

replay() { timeout 120 "$LF" -runs=1 -timeout=25 "$1" >"$2" 2>&1; }

# Signatures of the target's recorded findings (fuzz/<target>/findings/*), replayed the way the campaign
# ran (no strict switches), so a crash that rediscovers one is marked known in its meta.json.
declare -A known
for f in "$FUZZ/$TARGET"/findings/*; do
  [ -f "$f" ] || continue
  replay "$f" "$RUN/.replay.txt"
  line=$(python3 "$FUZZ/bin/signature.py" "$RUN/.replay.txt") && known[${line%% *}]=$(basename "$f")
done

declare -A seen count
unreproduced=0
for f in "${raw[@]}"; do
  replay "$f" "$RUN/.replay.txt"
  if ! line=$(python3 "$FUZZ/bin/signature.py" "$RUN/.replay.txt"); then unreproduced=$((unreproduced + 1)); continue; fi
  id=${line%% *}
  count[$id]=$(( ${count[$id]:-0} + 1 ))
  [ -n "${seen[$id]:-}" ] && continue
  seen[$id]=1
  d=$RUN/crashes/$id
  mkdir -p "$d"
  cp "$f" "$d/input"
  echo "${line#* }" >"$d/signature.txt"
  # Minimize, then keep the result only if it still crashes with the same signature.
  if [ "$ENGINE" = afl ]; then
    AFL_NO_UI=1 timeout $((MIN_S + 30)) afl-tmin -i "$d/input" -o "$d/minimized" -t 2000 -- "$FUZZ_BUILD/afl/$TARGET" >"$d/minimize.log" 2>&1
  else
    timeout $((MIN_S + 30)) "$LF" -minimize_crash=1 -max_total_time="$MIN_S" -exact_artifact_path="$d/minimized" "$d/input" >"$d/minimize.log" 2>&1
  fi
  min_ok=0
  if [ -s "$d/minimized" ]; then
    replay "$d/minimized" "$d/stack.txt"
    [ "$(python3 "$FUZZ/bin/signature.py" "$d/stack.txt" | cut -d' ' -f1)" = "$id" ] && min_ok=1
  fi
  if [ $min_ok = 0 ]; then cp "$d/input" "$d/minimized"; cp "$RUN/.replay.txt" "$d/stack.txt"; fi
  echo "make fuzz-repro CRASH=$HOST_RUN/crashes/$id/minimized" >"$d/reproduce.txt"
done
rm -f "$RUN/.replay.txt"

for id in "${!seen[@]}"; do
  d=$RUN/crashes/$id
  python3 - "$d" "$id" "${count[$id]}" "$(cat "$d/reproduce.txt")" "${known[$id]:-}" <<'PY'
import json, os, sys
d, cid, n, repro, known = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
json.dump({"id": cid, "signature": open(os.path.join(d, "signature.txt")).read().strip(), "count": n,
           "input_bytes": os.path.getsize(os.path.join(d, "input")),
           "minimized_bytes": os.path.getsize(os.path.join(d, "minimized")),
           "known": known or None, "reproduce": repro}, open(os.path.join(d, "meta.json"), "w"), indent=1)
PY
  echo "triage: $id x${count[$id]}: $(cat "$d/signature.txt")${known[$id]:+ (known: findings/${known[$id]})}"
  echo "triage:   $(wc -c <"$d/input") -> $(wc -c <"$d/minimized") bytes; reproduce: $(cat "$d/reproduce.txt")"
done
[ $unreproduced -gt 0 ] && echo "triage: $unreproduced crash input(s) did not crash the libFuzzer/ASan build (kept in raw/ or afl/*/crashes/)"
exit 0
