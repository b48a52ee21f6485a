#!/usr/bin/env bash
# Makes wirelab/rootfs:trixie, the root filesystem under wirelab/base:trixie, without a registry:
#   1. docker pull debian:trixie-slim      (users who have a registry)
#   2. debootstrap --variant=minbase trixie from Debian's archive, then docker import
# The path taken is stored in the image label wirelab.base.source (pull | debootstrap), which
# every wirelab image inherits. An existing rootfs image is reused: only WIRELAB_REBUILD_ROOTFS=1
# makes a new one, so the (slow) bootstrap runs once per machine.
set -euo pipefail

ref=${WIRELAB_ROOTFS:-wirelab/rootfs:trixie}
suite=trixie
mirror=${WIRELAB_DEBIAN_MIRROR:-http://deb.debian.org/debian}

source_of() { docker image inspect -f '{{index .Config.Labels "wirelab.base.source"}}' "$1"; }

if [ -z "${WIRELAB_REBUILD_ROOTFS:-}" ] && docker image inspect "$ref" >/dev/null 2>&1; then
  echo "rootfs: reusing $ref (source: $(source_of "$ref"))"
  exit 0
fi

if [ -z "${WIRELAB_NO_PULL:-}" ] && timeout 120 docker pull -q debian:trixie-slim >/dev/null 2>&1; then
  printf 'FROM debian:trixie-slim\nLABEL wirelab.base.source=pull\n' | docker build -q -t "$ref" - >/dev/null
  echo "rootfs: $ref from docker pull debian:trixie-slim (source: pull)"
  exit 0
fi
echo "rootfs: no registry (docker pull debian:trixie-slim failed); bootstrapping $suite from $mirror"

if ! command -v debootstrap >/dev/null; then
  echo "rootfs: debootstrap is missing: apt-get install debootstrap (ci/install-deps.sh does)" >&2
  exit 3
fi
if [ "$(id -u)" != 0 ]; then
  echo "rootfs: debootstrap needs root: run 'sudo make images' once (later builds reuse $ref)" >&2
  exit 3
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/wirelab-rootfs.XXXXXX")
trap 'rm -rf "$work"' EXIT
start=$SECONDS
# ca-certificates so images can use https mirrors; everything else comes from the Dockerfiles.
if ! debootstrap --variant=minbase --include=ca-certificates "$suite" "$work/root" "$mirror" >"$work/debootstrap.log" 2>&1; then
  tail -n 20 "$work/debootstrap.log" >&2
  echo "rootfs: debootstrap failed (log above)" >&2
  exit 1
fi
# Downloaded .debs and apt lists only bloat the image; the Dockerfiles run apt-get update.
rm -rf "$work/root/var/cache/apt/archives/"*.deb "$work/root/var/lib/apt/lists/"* "$work/root/var/log/"*.log
version=$(cat "$work/root/etc/debian_version")
tar --numeric-owner -C "$work/root" -c . |
  docker import \
    --change 'LABEL wirelab.base.source=debootstrap' \
    --change "LABEL wirelab.base.debian-version=$version" \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["/bin/bash"]' \
    - "$ref" >/dev/null
echo "rootfs: $ref imported from debootstrap (Debian $version) in $((SECONDS - start))s (source: debootstrap)"
