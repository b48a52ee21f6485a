#!/bin/bash
# wirelab endpoint script for node's built-in http2 server (server role, TESTCASE=h2 only).
#
# Contract: ROLE=server, TESTCASE=h2, SSLKEYLOGFILE; mounts /www, /certs, /logs.
# Exit 0 ok, 1 error, 127 not supported. TLS on TCP 443 (IPv4 and, where the container has it,
# IPv6), ALPN h2 and http/1.1 (allowHTTP1). Keys: server.js writes the TLS 'keylog' events to
# SSLKEYLOGFILE. Log: /logs/nodejs-h2.log.
set -u

# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh nodejs-h2 || exit 1
gate_role server
gate_testcase h2
gate_setup

echo "nodejs-h2 server: TESTCASE=$testcase, serving /www on TCP 443 (h2, http/1.1); node $(node --version)"
# shellcheck disable=SC2086 # SERVER_PARAMS is a word list
exec wirelab-serve node ${SERVER_PARAMS:-} /usr/local/lib/wirelab/server.js 2>>/logs/nodejs-h2.log
