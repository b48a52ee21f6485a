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

# Support is decided by the program before the network is touched, so a compliance probe gets 127.
"$bin" -check || exit $?

/setup.sh || exit 1

echo "go-h2 server: TESTCASE=${TESTCASE}, serving /www on TCP 443 (h2, http/1.1); Go $("$bin" -version)"
# shellcheck disable=SC2086 # SERVER_PARAMS is a word list
exec wirelab-serve "$bin" ${SERVER_PARAMS:-} 2>>/logs/go-h2.log
