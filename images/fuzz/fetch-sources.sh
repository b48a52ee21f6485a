#!/bin/bash
# fetch-sources.sh REQUIRED|OPTIONAL PKG=VERSION... — fetch pinned Debian source packages into /src.
# apt-get source checks every file it downloads against the signed Sources index. The archive this lab
# reaches serves a sparse subset of the pool (e.g. nghttp3 1.8.0-1 and pylsqpack 0.3.18-2 answer 404,
# nghttp3 1.15.0's .dsc is missing but its orig tarball is there), so when only the hash-checked
# upstream orig tarball arrives it is unpacked as-is (no Debian patches) and that fact is recorded in
# /src/SOURCES.txt; when orig and debian tarballs arrive without the .dsc (ngtcp2 1.11.0-1+deb13u1),
# both are unpacked and debian/patches applied. A REQUIRED package that cannot be fetched fails the
# build; an OPTIONAL one is recorded as missing, and the targets needing it say so when built.
set -uo pipefail
mode=$1; shift
mkdir -p /src/dl && cd /src/dl || exit 1
for spec in "$@"; do
  pkg=${spec%%=*} ver=${spec#*=}
  upstream=${ver#*:}; upstream=${upstream%-*}
  apt-get source --download-only --only-source "$spec" >"/src/dl/$pkg.log" 2>&1
  dsc=$(ls ${pkg}_*.dsc 2>/dev/null | head -n1)
  orig=$(ls ${pkg}_${upstream}.orig.tar.* 2>/dev/null | grep -v '\.asc$' | head -n1)
  debtar=$(ls "${pkg}_${ver#*:}".debian.tar.* 2>/dev/null | head -n1)
  if [ -n "$dsc" ] && dpkg-source -x "$dsc" "/src/$pkg-$upstream" >>"/src/dl/$pkg.log" 2>&1; then
    how="dpkg-source -x $dsc"
  elif [ -n "$orig" ] && [ -n "$debtar" ]; then
    # Both tarballs but no .dsc (e.g. ngtcp2's security update): unpack them and apply
    # debian/patches/series as dpkg-source would (the way images/ngtcp2 builds its h09 programs).
    d=/src/$pkg-$upstream
    mkdir -p "$d" && tar -xf "$orig" -C "$d" --strip-components=1 && tar -xf "$debtar" -C "$d" || exit 1
    n=0
    if [ -f "$d/debian/patches/series" ]; then
      while read -r p _; do
        case $p in ''|'#'*) continue ;; esac
        (cd "$d" && patch -p1 -s <"debian/patches/$p") || { echo "fetch-sources: $spec: patch $p failed" >&2; exit 1; }
        n=$((n + 1))
      done <"$d/debian/patches/series"
    fi
    [ "$(cd "$d" && dpkg-parsechangelog -S Version)" = "$ver" ] || { echo "fetch-sources: $spec: debian/changelog is not $ver" >&2; exit 1; }
    how="orig + debian tarballs ($orig, $debtar, hash-checked by apt; .dsc not served), $n Debian patches applied"
  elif [ -n "$orig" ]; then
    mkdir -p "/src/$pkg-$upstream" && tar -xf "$orig" -C "/src/$pkg-$upstream" --strip-components=1
    how="orig tarball only ($orig, hash-checked by apt; .dsc/.debian.tar not served)"
  else
    echo "fetch-sources: $spec: not served by the archive ($(grep -m1 -o '404.*' "/src/dl/$pkg.log"))" >&2
    echo "$spec MISSING" >>/src/SOURCES.txt
    [ "$mode" = OPTIONAL ] && continue
    exit 1
  fi
  ln -sfn "/src/$pkg-$upstream" "/src/$pkg"
  echo "$spec $how" | tee -a /src/SOURCES.txt
done
rm -rf /src/dl
