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

# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh go-x-net || exit 1
gate_role client server
# The test case: the program decides (testcase.go, go-x-net -check), so its list is in one place.
gate_check "$bin" -check
gate_setup

if [ "$role" = client ]; then
  # shellcheck disable=SC2086 # CLIENT_PARAMS is a word list
  exec "$bin" ${CLIENT_PARAMS:-}
fi
# shellcheck disable=SC2086
exec wirelab-serve "$bin" ${SERVER_PARAMS:-}
