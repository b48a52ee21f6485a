#!/usr/bin/env bash
# Installs what a fresh Debian (bookworm or trixie) machine lacks for `make test`: debootstrap
# (base image without a registry) and compose v2. Idempotent; needs root (CI runs as root).
set -euo pipefail

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
updated=0
apt_update() { [ "$updated" = 1 ] || { as_root apt-get update -qq; updated=1; }; }

compose_v2() {
  docker compose version 2>/dev/null | grep -qiE 'version v?[2-9]' ||
    docker-compose version 2>/dev/null | grep -qiE 'version v?[2-9]'
}

if ! command -v debootstrap >/dev/null; then
  apt_update
  as_root apt-get install -y -qq debootstrap >/dev/null
  echo "install-deps: installed debootstrap"
fi

if ! command -v jq >/dev/null; then # coverage/test.sh reads the coverage summaries with jq
  apt_update
  as_root apt-get install -y -qq jq >/dev/null
  echo "install-deps: installed jq"
fi

if ! compose_v2; then
  . /etc/os-release
  if [ "${VERSION_CODENAME:-}" != trixie ] && [ ! -e /etc/apt/sources.list.d/wirelab-trixie.sources ]; then
    # Only docker-compose is taken from trixie: pin trixie below the host's release so nothing
    # else moves, and no recommends (they would replace the host's docker.io).
    as_root tee /etc/apt/sources.list.d/wirelab-trixie.sources >/dev/null <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    as_root tee /etc/apt/preferences.d/wirelab-trixie >/dev/null <<'PIN'
Package: *
Pin: release n=trixie
Pin-Priority: 100
PIN
    updated=0
  fi
  apt_update
  as_root apt-get install -y -qq --no-install-recommends -t trixie docker-compose >/dev/null
  compose_v2 || { echo "install-deps: docker-compose from trixie did not give compose v2" >&2; exit 3; }
  echo "install-deps: installed $(docker compose version 2>/dev/null || docker-compose version)"
fi

# The crosstraffic measurement competes with a TCP CUBIC flow (as upstream). Containers may only
# pick algorithms the host lists in net.ipv4.tcp_allowed_congestion_control; add cubic when the
# kernel has it (without it wirelab uses the kernel default and says so in the result).
allowed=/proc/sys/net/ipv4/tcp_allowed_congestion_control
if grep -qw cubic /proc/sys/net/ipv4/tcp_available_congestion_control 2>/dev/null && ! grep -qw cubic "$allowed"; then
  as_root sysctl -q -w net.ipv4.tcp_allowed_congestion_control="$(cat "$allowed") cubic" \
    && echo "install-deps: allowed TCP cubic for containers (crosstraffic): $(cat "$allowed")"
fi

if ! docker version --format '{{.Server.Version}}' >/dev/null 2>&1; then
  echo "install-deps: the Docker engine is not reachable (is dockerd running?)" >&2
  exit 3
fi
echo "install-deps: ready (docker $(docker version --format '{{.Server.Version}}'), $(docker compose version --short 2>/dev/null || docker-compose version --short))"
