#!/usr/bin/env bash
# Installs what a fresh Debian (bookworm or trixie) machine lacks for wirelab: debootstrap (base
# image without a registry), jq, compose v2, chromium (WIRELAB_BROWSER=1: make test), and TCP cubic among the congestion controls containers
# may use. `make interop` and `make test` run it before anything else, so a fresh clone needs no
# other step. Idempotent and quiet when nothing is missing. Installing needs root on Debian: else
# one line names the exact command to run, and it exits 3 (the CLI's "environment" code).
set -euo pipefail

say() { echo "install-deps: $*"; }
fail3() { echo "install-deps: $*" >&2; exit 3; }

compose_v2() {
  docker compose version 2>/dev/null | grep -qiE 'version v?[2-9]' ||
    docker-compose version 2>/dev/null | grep -qiE 'version v?[2-9]'
}
allowed=/proc/sys/net/ipv4/tcp_allowed_congestion_control
cubic_missing() {
  grep -qw cubic /proc/sys/net/ipv4/tcp_available_congestion_control 2>/dev/null && ! grep -qw cubic "$allowed"
}

# What is missing, as Debian package names (compose v2 is trixie's docker-compose).
missing=()
if ! command -v debootstrap >/dev/null && ! docker image inspect wirelab/rootfs:trixie >/dev/null 2>&1; then
  missing+=(debootstrap)
fi
command -v jq >/dev/null || missing+=(jq) # coverage/test.sh reads the coverage summaries with jq
compose_v2 || missing+=(docker-compose)
# make test drives the HTML report in headless Chromium (chromedp); the suites do not need it.
[ "${WIRELAB_BROWSER:-}" = 1 ] && ! command -v chromium >/dev/null && missing+=(chromium)

if [ ${#missing[@]} -gt 0 ]; then
  # WIRELAB_OS_RELEASE lets the setup test pose as another system.
  os_release=${WIRELAB_OS_RELEASE:-/etc/os-release}
  distro=$( (. "$os_release" 2>/dev/null; echo "${ID:-unknown} ${ID_LIKE:-}") )
  case " $distro " in
    *" debian "*) ;;
    *) fail3 "missing ${missing[*]}, and this is not Debian (${distro% }): install them with your package manager (compose v2 >= 2.20), then run the make target again" ;;
  esac
  [ "$(id -u)" = 0 ] || fail3 "missing ${missing[*]}: run as root: sudo bash ci/install-deps.sh"

  . "$os_release"
  if [[ " ${missing[*]} " == *" docker-compose "* ]] && [ "${VERSION_CODENAME:-}" != trixie ] &&
     [ ! -e /etc/apt/sources.list.d/wirelab-trixie.sources ]; then
    # Only docker-compose is taken from trixie: pin trixie below the host's release so nothing
    # else moves, and no recommends (they would replace the host's docker.io).
    tee /etc/apt/sources.list.d/wirelab-trixie.sources >/dev/null <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    tee /etc/apt/preferences.d/wirelab-trixie >/dev/null <<'PIN'
Package: *
Pin: release n=trixie
Pin-Priority: 100
PIN
  fi
  apt-get update -qq
  for pkg in "${missing[@]}"; do
    if [ "$pkg" = docker-compose ] && [ "${VERSION_CODENAME:-}" != trixie ]; then
      apt-get install -y -qq --no-install-recommends -t trixie docker-compose >/dev/null
    else
      apt-get install -y -qq --no-install-recommends "$pkg" >/dev/null
    fi
    say "installed $pkg"
  done
  compose_v2 || fail3 "docker-compose from Debian did not give compose v2"
fi

# The crosstraffic measurement competes with a TCP CUBIC flow (as upstream). Containers may only
# pick algorithms the host lists in net.ipv4.tcp_allowed_congestion_control. Without root this
# is a warning: only that measurement is affected (it then uses the kernel default and says so).
if cubic_missing; then
  if [ "$(id -u)" = 0 ] && sysctl -q -w net.ipv4.tcp_allowed_congestion_control="$(cat "$allowed") cubic" 2>/dev/null; then
    say "allowed TCP cubic for containers (crosstraffic): $(cat "$allowed")"
  else
    say "warning: TCP cubic is not allowed for containers (crosstraffic uses the kernel default): sudo sysctl -w net.ipv4.tcp_allowed_congestion_control='$(cat "$allowed") cubic'" >&2
  fi
fi

docker version --format '{{.Server.Version}}' >/dev/null 2>&1 ||
  fail3 "the Docker engine is not reachable (docker version): start dockerd and make sure you may use its socket"
[ ${#missing[@]} -eq 0 ] ||
  say "ready (docker $(docker version --format '{{.Server.Version}}'), compose $(docker compose version --short 2>/dev/null || docker-compose version --short))"
