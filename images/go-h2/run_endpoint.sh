#!/bin/bash
# wirelab endpoint script for go-h2 (net/http's HTTP/2 server; server role, TESTCASE=h2 only).
#
# Contract: ROLE=server, TESTCASE=h2, SSLKEYLOGFILE; mounts /www, /certs, /logs.
# Exit 0 ok, 1 error, 127 not supported. TLS on TCP 443 (IPv4 and, where the container has it,
# IPv6), ALPN h2 and http/1.1. Keys: tls.Config.KeyLogWriter on SSLKEYLOGFILE.
# Log: /logs/go-h2.log.
set -u
bin=/usr/local/bin/go-h2

if [ "${1:-}" = "--version" ]; then
  exec "$bin" -version
fi

# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh go-h2 || exit 1
gate_role server
# The test case: the program decides (go-h2 -check), so its list is in one place.
gate_check "$bin" -check
gate_setup

echo "go-h2 server: TESTCASE=$testcase, serving /www on TCP 443 (h2, http/1.1); Go $("$bin" -version)"
# shellcheck disable=SC2086 # SERVER_PARAMS is a word list
exec wirelab-serve "$bin" ${SERVER_PARAMS:-} 2>>/logs/go-h2.log
