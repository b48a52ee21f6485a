#!/bin/bash
# lsqpack-abi-test.sh — inside wirelab/fuzz (fuzz/test.sh runs it): proves fuzz/common/lsqpack_abi.h
# against the ls-qpack compiled into Debian's pylsqpack. nghttp3's examples/qpack encodes every
# fuzz/qif/*.qif at 4 table sizes x 3 blocked limits x 2 ack modes; ls-qpack must decode each encoding
# back to exactly the QIF's header lists. Two corrupted blocks (truncated; static index 99, past the
# 99-entry table) must be rejected, and lsqpack_dec_init must write well inside the reserved storage.
set -uo pipefail
FUZZ=$(cd "$(dirname "$0")/.." && pwd)
export FUZZ_BUILD=${FUZZ_BUILD:-/out/fuzz/build}
W=$(mktemp -d)
fail=0
clang -O1 -g -fsanitize=address,undefined "$FUZZ/bin/lsqpack-qif-decode.c" "$LSQPACK_SO" -Wl,--no-as-needed "$LIBPYTHON_SO" -o "$W/dec" || exit 1
read -r used total < <("$W/dec" --footprint)
if [ "$used" -gt 0 ] && [ $((used * 4)) -le "$total" ]; then echo "ok   lsqpack_dec_init writes $used of $total reserved bytes"
else echo "FAIL lsqpack_dec_init wrote $used of $total reserved bytes"; fail=1; fi
ENCODE_ONLY=$W/enc "$FUZZ/bin/encode-seeds.sh" 2>/dev/null || { echo "FAIL encoding the QIF seeds with nghttp3"; exit 1; }
# QIF -> header lists, blank lines between sets, comments and trailing blanks ignored.
norm() { python3 -c 'import sys; t=open(sys.argv[1]).read(); print("\n\n".join("\n".join(l for l in b.split("\n") if l and not l.startswith("#")) for b in t.split("\n\n") if b.strip(" \n#") and any(l and not l.startswith("#") for l in b.split("\n"))))' "$1"; }
n=0 bad=0
for e in "$W"/enc/*.out.*; do
  IFS=. read -r _ _ size blocked _ <<<"$(basename "$e")"
  qif=$W/enc/$(basename "$e" | sed 's/\.out\..*//').qif
  if "$W/dec" "$e" "$size" "$blocked" >"$W/got" 2>"$W/err" && [ "$(norm "$W/got")" = "$(norm "$qif")" ]; then n=$((n + 1))
  else bad=$((bad + 1)); echo "FAIL ls-qpack decode of $(basename "$e"): $(tail -1 "$W/err")"; diff <(norm "$qif") <(norm "$W/got") | head -5; fi
done
[ $bad -eq 0 ] && [ $n -ge 72 ] && echo "ok   ls-qpack decodes all $n nghttp3 encodings back to the QIF header lists" || { echo "FAIL ls-qpack ABI: $bad of $((n + bad)) encodings differ"; fail=1; }
# Corrupted blocks: the first header block truncated by one byte, and one replaced by a static index 99.
e=$(ls "$W"/enc/browser-requests.out.4096.16.0)
python3 - "$e" "$W" <<'PY'
import struct, sys
blob, w = open(sys.argv[1], "rb").read(), sys.argv[2]
recs, i = [], 0
while i + 12 <= len(blob):
    sid, n = struct.unpack(">QI", blob[i:i + 12]); recs.append((sid, blob[i + 12:i + 12 + n])); i += 12 + n
def write(name, recs): open(f"{w}/{name}", "wb").write(b"".join(struct.pack(">QI", s, len(d)) + d for s, d in recs))
first = next(k for k, (s, _) in enumerate(recs) if s != 0)
t = list(recs); t[first] = (t[first][0], t[first][1][:-1]); write("truncated", t[:first + 1])
t = list(recs); t[first] = (t[first][0], b"\x00\x00\xff\x24"); write("static99", t[:first + 1])
PY
for c in truncated static99; do
  if "$W/dec" "$W/$c" 4096 16 >/dev/null 2>&1; then echo "FAIL ls-qpack accepted the corrupted block ($c)"; fail=1
  else echo "ok   ls-qpack rejects the corrupted block ($c)"; fi
done
rm -rf "$W"
exit $fail
