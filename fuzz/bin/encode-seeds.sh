#!/bin/bash
# encode-seeds.sh — inside wirelab/fuzz: encode fuzz/qif/*.qif with nghttp3's examples/qpack encoder at
# several dynamic table sizes / blocked-stream limits / ack modes, wrap the encodings as inputs of each
# target (seed-records.py), and merge them into fuzz/<target>/corpus with libFuzzer -merge=1 (only
# inputs that add coverage are kept). ls-qpack's interop encoder joins when its source is in the image.
set -euo pipefail
FUZZ=$(cd "$(dirname "$0")/.." && pwd)
export FUZZ_BUILD=${FUZZ_BUILD:-/out/fuzz/build}
TOOLS=$FUZZ_BUILD/tools
mkdir -p "$TOOLS"
if [ ! -x "$TOOLS/qpack" ]; then
  echo "seeds: building nghttp3 examples/qpack" >&2
  # Plain (uninstrumented) library objects, then the C++ example on top.
  objs=$(mktemp -d)
  for f in /src/nghttp3/lib/*.c /src/nghttp3/lib/sfparse/sfparse.c; do
    clang -O1 -I/src/nghttp3/lib/includes -I/src/nghttp3/lib -DNGHTTP3_STATICLIB -DHAVE_ARPA_INET_H -DHAVE_NETINET_IN_H \
      -DHAVE_UNISTD_H -DHAVE_ENDIAN_H -DHAVE_BYTESWAP_H -DHAVE_DECL_BE64TOH=1 -DHAVE_DECL_BSWAP_64=1 -c "$f" -o "$objs/$(basename "$f").o"
  done
  clang++ -std=c++20 -O1 -I/src/nghttp3/lib/includes -DNGHTTP3_STATICLIB \
    /src/nghttp3/examples/{qpack,qpack_encode,qpack_decode,util}.cc "$objs"/*.o -o "$TOOLS/qpack"
fi
enc=$(mktemp -d) qifs=$(mktemp -d)
# nghttp3's QIF reader knows no "#" comment lines; strip them.
for q in "$FUZZ"/qif/*.qif; do grep -v '^#' "$q" >"$qifs/$(basename "$q")"; done
for q in "$qifs"/*.qif; do
  for s in 0 256 4096 16384; do
    for m in 0 16 100; do
      for a in "" -a; do
        out=$enc/$(basename "$q" .qif).out.$s.$m.${a:+1}${a:-0}
        "$TOOLS/qpack" encode -s "$s" -m "$m" $a "$q" "$out" >/dev/null
      done
    done
  done
done
echo "seeds: $(ls "$enc" | wc -l) encodings (nghttp3 examples/qpack)" >&2
# ENCODE_ONLY=<dir>: just leave the encodings there (the ls-qpack ABI test decodes them).
if [ -n "${ENCODE_ONLY:-}" ]; then mkdir -p "$ENCODE_ONLY" && cp "$enc"/* "$ENCODE_ONLY"/ && cp "$qifs"/*.qif "$ENCODE_ONLY"/; exit 0; fi
raw=$(mktemp -d)
python3 "$FUZZ/bin/seed-records.py" "$enc" "$raw"
for t in "$@"; do
  [ -d "$raw/$t" ] || continue
  "$FUZZ/build.sh" ENGINE=libfuzzer TARGET="$t"
  mkdir -p "$FUZZ/$t/corpus"
  "$FUZZ_BUILD/libfuzzer/$t" -merge=1 -timeout=25 "$FUZZ/$t/corpus" "$raw/$t" 2>&1 | grep -E 'MERGE-OUTER: [0-9]+ new files' | sed "s/^/seeds: $t: /" >&2
done
