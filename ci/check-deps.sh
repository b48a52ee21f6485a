#!/usr/bin/env bash
# Checks what wirelab needs on the host and says, per missing piece, how to get it.
# Exit 0 when everything is there, 3 otherwise (the CLI's "environment" exit code).
set -u
missing=0
need() { # need NAME CHECK-COMMAND HOW-TO-GET
  if eval "$2" >/dev/null 2>&1; then
    printf '  ok       %s\n' "$1"
  else
    printf '  MISSING  %s: %s\n' "$1" "$3"
    missing=1
  fi
}
echo "wirelab prerequisites:"
need "go"               "go version"                "install Go >= 1.26 (https://go.dev/doc/install, or Debian's golang-go)"
need "make"             "make --version"            "apt-get install make"
need "docker CLI"       "command -v docker"         "apt-get install docker.io"
need "docker engine"    "docker version --format '{{.Server.Version}}'" "start dockerd (systemctl start docker) and make sure you may use its socket"
need "compose v2"       "docker compose version 2>/dev/null | grep -qiE 'version v?[2-9]' || docker-compose version 2>/dev/null | grep -qiE 'version v?[2-9]'" \
  "bash ci/install-deps.sh (Debian trixie's docker-compose 2.26 package; installs on bookworm too)"
need "debootstrap (only without a registry)" "command -v debootstrap || docker image inspect wirelab/rootfs:trixie" "apt-get install debootstrap"
need "jq (coverage/test.sh)" "command -v jq" "apt-get install jq"
need "python3 (fuzz scripts)" "command -v python3" "apt-get install python3"
need "TCP cubic allowed for containers (crosstraffic)" "grep -qw cubic /proc/sys/net/ipv4/tcp_allowed_congestion_control" \
  "bash ci/install-deps.sh (adds cubic to net.ipv4.tcp_allowed_congestion_control; without it crosstraffic competes with the kernel default)"
exit $((missing * 3))
