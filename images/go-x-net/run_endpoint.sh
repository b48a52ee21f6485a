#!/bin/bash
# wirelab endpoint script for go-x-net (hq-interop on golang.org/x/net/quic).
#
# Contract: ROLE=client|server, TESTCASE, REQUESTS (client), SSLKEYLOGFILE, QLOGDIR; mounts /www,
# /downloads, /certs, /logs. Exit 0 ok, 1 error, 127 test case not supported.
set -u
bin=/usr/local/bin/go-x-net

if [ "${1:-}" = "--version" ]; then
  "$bin" -version | sed "s/^v//"
  exit 0
fi

# Support is decided by the program itself (testcase.go), before the network is touched, so a
# compliance probe gets 127 anywhere.
"$bin" -check || exit $?

/setup.sh || exit 1

if [ "$ROLE" = client ]; then
  /wait-for-it.sh sim:57832 -s -t 30 || { echo "sim not ready" >&2; exit 1; }
  # shellcheck disable=SC2086 # CLIENT_PARAMS is a word list
  exec "$bin" ${CLIENT_PARAMS:-}
fi
# shellcheck disable=SC2086
exec wirelab-serve "$bin" ${SERVER_PARAMS:-}
