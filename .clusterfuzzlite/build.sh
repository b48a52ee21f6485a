#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build script: every wirelab fuzz target (planted-oob excluded: it is a
# test fixture with a deliberate bug) built by fuzz/build.sh ENGINE=external, which compiles library
# and harness with $CC $CFLAGS and links with $CXX $CXXFLAGS $LIB_FUZZING_ENGINE. Writes to $OUT:
# <target>, <target>_seed_corpus.zip, <target>.dict, <target>.options.
cd "$SRC/wirelab"
export NGHTTP3_SRC=${NGHTTP3_SRC:-$SRC/nghttp3}
export NGTCP2_SRC=${NGTCP2_SRC:-$SRC/ngtcp2}
export LSQPACK_SRC=${LSQPACK_SRC:-$SRC/pylsqpack/vendor/ls-qpack}
export FUZZ_BUILD=$WORK/wirelab-fuzz
for dir in fuzz/*/harness.c; do
  t=$(basename "$(dirname "$dir")")
  [ "$t" = planted-oob ] && continue
  rc=0
  fuzz/build.sh ENGINE=external TARGET="$t" || rc=$?
  if [ $rc -eq 3 ]; then echo "clusterfuzzlite: skipping $t: its library source is not in this builder"; continue; fi
  [ $rc -eq 0 ] || exit $rc
  cp "$FUZZ_BUILD/external/$t" "$OUT/$t"
  rm -f "$OUT/${t}_seed_corpus.zip"
  (cd "fuzz/$t/corpus" && zip -q -j "$OUT/${t}_seed_corpus.zip" ./*)
  for ext in dict options; do [ ! -f "fuzz/$t/$t.$ext" ] || cp "fuzz/$t/$t.$ext" "$OUT/$t.$ext"; done
done
