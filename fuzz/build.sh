#!/bin/bash
# build.sh ENGINE=libfuzzer|afl|cmplog|coverage|external TARGET=<name>|all — build fuzz targets inside
# wirelab/fuzz (or ClusterFuzzLite's builder, ENGINE=external). The library under test is compiled from
# the pinned, unpacked Debian sources with the engine's instrumentation once per engine and cached;
# the harness is compiled from fuzz/<target>/harness.c and linked with the engine's driver:
#   libfuzzer  clang -fsanitize=fuzzer,address,undefined
#   afl        afl-clang-fast + ASan/UBSan, linked to AFL++'s LLVMFuzzerTestOneInput driver (persistent,
#              shared-memory input)
#   cmplog     afl-clang-fast with AFL_LLVM_CMPLOG=1, no sanitizers (the -c companion of an afl build)
#   coverage   clang --coverage -O0 + fuzz/common/replay_main.c (for gcovr; see replay_main.c)
#   external   $CC $CFLAGS, linked with $CXX $CXXFLAGS $LIB_FUZZING_ENGINE (ClusterFuzzLite / OSS-Fuzz)
# Output: $FUZZ_BUILD/<engine>/<target> (default FUZZ_BUILD=out/fuzz/build under the checkout).
set -euo pipefail
for kv in "$@"; do case $kv in ENGINE=*|TARGET=*|FUZZ_BUILD=*) export "${kv?}" ;; *) echo "build.sh: unknown argument '$kv' (want ENGINE=, TARGET=)" >&2; exit 2 ;; esac; done
HERE=$(cd "$(dirname "$0")" && pwd)
ENGINE=${ENGINE:-libfuzzer}
TARGET=${TARGET:-all}
FUZZ_BUILD=${FUZZ_BUILD:-$HERE/../out/fuzz/build}
NGHTTP3_SRC=${NGHTTP3_SRC:-/src/nghttp3}
NGTCP2_SRC=${NGTCP2_SRC:-/src/ngtcp2}
LSQPACK_SRC=${LSQPACK_SRC:-/src/pylsqpack/vendor/ls-qpack}

SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
DBG="-g -O1 -fno-omit-frame-pointer"
case $ENGINE in
  libfuzzer) CC=clang; LD=clang++; LIB_CFLAGS="$DBG $SAN -fsanitize=fuzzer-no-link"; LDFLAGS="-fsanitize=fuzzer $SAN" ;;
  afl) CC=afl-clang-fast; LD=afl-clang-fast++; LIB_CFLAGS="$DBG $SAN"; LDFLAGS="-fsanitize=fuzzer $SAN" ;;
  cmplog) export AFL_LLVM_CMPLOG=1; CC=afl-clang-fast; LD=afl-clang-fast++; LIB_CFLAGS="$DBG"; LDFLAGS="-fsanitize=fuzzer" ;;
  coverage) CC=clang; LD=clang; LIB_CFLAGS="-g -O0 --coverage"; LDFLAGS="--coverage" ;;
  external) : "${CC:?CC unset}" "${CXX:?CXX unset}" "${LIB_FUZZING_ENGINE:?LIB_FUZZING_ENGINE unset}"
            LD=$CXX; LIB_CFLAGS="${CFLAGS:-}"; LDFLAGS="${CXXFLAGS:-} $LIB_FUZZING_ENGINE" ;;
  *) echo "build.sh: ENGINE: unknown engine '$ENGINE' (want libfuzzer, afl, cmplog, coverage, external)" >&2; exit 2 ;;
esac
export AFL_QUIET=1

targets_all() { for d in "$HERE"/*/harness.c; do basename "$(dirname "$d")"; done; }
if [ "$TARGET" = all ]; then TARGETS=$(targets_all); else
  [ -f "$HERE/$TARGET/harness.c" ] || { echo "build.sh: TARGET: unknown target '$TARGET' (have: $(targets_all | tr '\n' ' '))" >&2; exit 2; }
  TARGETS=$TARGET
fi

OUTDIR=$FUZZ_BUILD/$ENGINE
mkdir -p "$OUTDIR/lib"
NGHTTP3_INC="-I$NGHTTP3_SRC/lib/includes"
NGHTTP3_DEFS="-DNGHTTP3_STATICLIB -DHAVE_ARPA_INET_H -DHAVE_NETINET_IN_H -DHAVE_UNISTD_H -DHAVE_ENDIAN_H -DHAVE_BYTESWAP_H -DHAVE_DECL_BE64TOH=1 -DHAVE_DECL_BSWAP_64=1"
LSQPACK_INC="-I$LSQPACK_SRC -I$LSQPACK_SRC/deps/xxhash"
# ngtcp2: files of lib/ only (the packet, frame and transport-parameter codecs need no crypto backend);
# the harness includes internal headers from lib/. ngtcp2/version.h is made from the source's own
# version.h.in (configure's job) when the tarball lacks it (a git checkout; Debian's tarball has it).
NGTCP2_GEN=$OUTDIR/lib/ngtcp2-gen
NGTCP2_INC="-I$NGTCP2_SRC/lib/includes -I$NGTCP2_GEN -I$NGTCP2_SRC/lib"
NGTCP2_DEFS="-DNGTCP2_STATICLIB -DBUILDING_NGTCP2 -DHAVE_ARPA_INET_H -DHAVE_NETINET_IN_H -DHAVE_UNISTD_H -DHAVE_ENDIAN_H -DHAVE_BYTESWAP_H -DHAVE_DECL_BE64TOH=1 -DHAVE_DECL_BSWAP_64=1 -DHAVE_EXPLICIT_BZERO"

# compile_lib NAME SRCDIR FLAGS FILES... — objects + archive, rebuilt only when compiler/flags/sources change.
compile_lib() {
  local name=$1 src=$2 flags=$3; shift 3
  local dir=$OUTDIR/lib/$name stamp
  stamp=$( { echo "$CC $LIB_CFLAGS $flags"; $CC --version 2>/dev/null | head -n1; (cd "$src" && cat "$@") | md5sum; } | md5sum | cut -c1-16)
  if [ -f "$dir/lib$name.a" ] && [ "$(cat "$dir/stamp" 2>/dev/null)" = "$stamp" ]; then return; fi
  rm -rf "$dir" && mkdir -p "$dir"
  echo "build: $ENGINE: lib$name ($# files)" >&2
  local f pids=() failed=0
  for f in "$@"; do
    # shellcheck disable=SC2086 # flag lists are word-split on purpose
    $CC $LIB_CFLAGS $flags -c "$src/$f" -o "$dir/$(echo "$f" | tr / _).o" & pids+=($!)
    if [ ${#pids[@]} -ge "${FUZZ_BUILD_JOBS:-2}" ]; then wait "${pids[0]}" || failed=1; pids=("${pids[@]:1}"); fi
  done
  for p in "${pids[@]}"; do wait "$p" || failed=1; done
  # a half-compiled library gets no archive and no stamp, so the next build compiles it again
  [ $failed = 0 ] || { echo "build: $ENGINE: lib$name: a file did not compile" >&2; return 1; }
  ar rcs "$dir/lib$name.a" "$dir"/*.o || return 1
  echo "$stamp" > "$dir/stamp"
}

lib_nghttp3() {
  local files
  files=$(cd "$NGHTTP3_SRC" && ls lib/*.c lib/sfparse/sfparse.c)
  # shellcheck disable=SC2086
  compile_lib nghttp3 "$NGHTTP3_SRC" "$NGHTTP3_INC -I$NGHTTP3_SRC/lib $NGHTTP3_DEFS" $files || return 1
  echo "$OUTDIR/lib/nghttp3/libnghttp3.a"
}

lib_ngtcp2() {
  if [ ! -f "$NGTCP2_SRC/lib/ngtcp2_pkt.c" ]; then
    echo "build.sh: $1: needs ngtcp2, but $NGTCP2_SRC/lib/ngtcp2_pkt.c is missing (see /src/SOURCES.txt)" >&2
    return 3
  fi
  if [ ! -f "$NGTCP2_SRC/lib/includes/ngtcp2/version.h" ]; then
    # configure's two substitutions, the version taken from configure.ac's AC_INIT.
    local ver num
    ver=$(sed -nE 's/^AC_INIT\(\[ngtcp2\], *\[([^]]+)\].*/\1/p' "$NGTCP2_SRC/configure.ac")
    [ -n "$ver" ] || { echo "build.sh: $1: no version in $NGTCP2_SRC/configure.ac" >&2; return 1; }
    num=$(echo "$ver" | awk -F'[.-]' '{ printf "0x%02x%02x%02x", $1, $2, $3 }')
    mkdir -p "$NGTCP2_GEN/ngtcp2"
    sed -e "s/@PACKAGE_VERSION@/$ver/" -e "s/@PACKAGE_VERSION_NUM@/$num/" \
      "$NGTCP2_SRC/lib/includes/ngtcp2/version.h.in" >"$NGTCP2_GEN/ngtcp2/version.h"
  fi
  # The codecs, qlog and what they link (their closure; ngtcp2_conn.c and the congestion controllers,
  # most of the library's compile time, are not needed).
  local files="" f
  for f in pkt transport_params qlog conv cid str mem vec unreachable buf path addr; do files="$files lib/ngtcp2_$f.c"; done
  # shellcheck disable=SC2086
  compile_lib ngtcp2 "$NGTCP2_SRC" "$NGTCP2_INC $NGTCP2_DEFS" $files || return 1
  echo "$OUTDIR/lib/ngtcp2/libngtcp2.a"
}

lib_lsqpack() {
  if [ ! -f "$LSQPACK_SRC/lsqpack.c" ]; then
    echo "build.sh: $1: needs ls-qpack, but $LSQPACK_SRC/lsqpack.c is missing (pylsqpack source not fetched; see /src/SOURCES.txt)" >&2
    return 3
  fi
  compile_lib lsqpack "$LSQPACK_SRC" "$LSQPACK_INC" lsqpack.c deps/xxhash/xxhash.c || return 1
  echo "$OUTDIR/lib/lsqpack/liblsqpack.a"
}

# ls-qpack as Debian ships it: the prebuilt pylsqpack extension module (see images/fuzz/Dockerfile and
# fuzz/common/lsqpack_abi.h). Linked by path; libpython satisfies the module's load-time Python symbols.
LSQPACK_SO=${LSQPACK_SO:-/usr/lib/python3/dist-packages/pylsqpack/_binding.abi3.so}
LIBPYTHON_SO=${LIBPYTHON_SO:-/usr/lib/x86_64-linux-gnu/libpython3.13.so.1.0}
lib_lsqpack_so() {
  if [ ! -f "$LSQPACK_SO" ] || [ ! -f "$LIBPYTHON_SO" ]; then
    echo "build.sh: $1: needs ls-qpack from python3-pylsqpack, but $LSQPACK_SO or $LIBPYTHON_SO is missing" >&2
    return 3
  fi
  echo "$LSQPACK_SO -Wl,--no-as-needed $LIBPYTHON_SO"
}

# Each target names the libraries its harness needs in fuzz/<target>/libs (one per line).
build_target() {
  local t=$1 incs="" libs="" lib
  for lib in $(cat "$HERE/$t/libs" 2>/dev/null); do
    case $lib in
      nghttp3) lib=$(lib_nghttp3) || return $?; libs="$libs $lib"; incs="$incs $NGHTTP3_INC $NGHTTP3_DEFS" ;;
      ngtcp2) lib=$(lib_ngtcp2 "$t") || return $?; libs="$libs $lib"; incs="$incs $NGTCP2_INC $NGTCP2_DEFS" ;;
      lsqpack) lib=$(lib_lsqpack "$t") || return $?; libs="$libs $lib"; incs="$incs $LSQPACK_INC" ;;
      lsqpack-so) lib=$(lib_lsqpack_so "$t") || return $?; libs="$libs $lib" ;;
      *) echo "build.sh: $t/libs: unknown library '$lib'" >&2; return 2 ;;
    esac
  done
  local extra=""
  # A relinked coverage build cannot merge counts into the old harness's .gcda: drop them.
  [ "$ENGINE" = coverage ] && extra="$HERE/common/replay_main.c" && rm -f "$OUTDIR/$t.gcda" "$OUTDIR/replay_main.gcda"
  # Explicit returns: set -e does not apply inside a function called as `build_target || ...`.
  # shellcheck disable=SC2086
  $CC $LIB_CFLAGS $incs -c "$HERE/$t/harness.c" -o "$OUTDIR/$t.o" || return 1
  # shellcheck disable=SC2086
  [ -z "$extra" ] || $CC $LIB_CFLAGS -c "$extra" -o "$OUTDIR/replay_main.o" || return 1
  # shellcheck disable=SC2086
  $LD $LDFLAGS "$OUTDIR/$t.o" ${extra:+"$OUTDIR/replay_main.o"} $libs -o "$OUTDIR/$t" || return 1
  rm -f "$OUTDIR/$t.o" "$OUTDIR/replay_main.o"
  echo "build: $ENGINE: $OUTDIR/$t" >&2
}

# Exit 3 when only missing library sources stopped a build (an environment problem, not a bug).
rc=0
for t in $TARGETS; do build_target "$t" || { r=$?; [ $r -eq 3 ] && [ $rc -eq 0 ] && rc=3; [ $r -ne 3 ] && rc=1; }; done
exit $rc
