#!/bin/bash
# wirelab endpoint script for node's built-in http2 server (server role, TESTCASE=h2 only).
#
# Contract: ROLE=server, TESTCASE=h2, SSLKEYLOGFILE; mounts /www, /certs, /logs.
# Exit 0 ok, 1 error, 127 not supported. TLS on TCP 443 (IPv4 and, where the container has it,
# IPv6), ALPN h2 and http/1.1 (allowHTTP1). Keys: server.js writes the TLS 'keylog' events to
# SSLKEYLOGFILE. Log: /logs/nodejs-h2.log.
set -u

role=${ROLE:-}
testcase=${TESTCASE:-}

# Decide support before touching the network, so a compliance probe gets 127 anywhere.
if [ "$role" != server ]; then
  if [ "$role" = client ]; then echo "nodejs-h2: no client role"; exit 127; fi
  echo "ROLE must be client or server (got '$role')" >&2; exit 1
fi
if [ "$testcase" != h2 ]; then
  echo "nodejs-h2 server: test case '$testcase' not supported (h2 only)"; exit 127
fi

/setup.sh || exit 1

echo "nodejs-h2 server: TESTCASE=$testcase, serving /www on TCP 443 (h2, http/1.1); node $(node --version)"
# shellcheck disable=SC2086 # SERVER_PARAMS is a word list
exec wirelab-serve node ${SERVER_PARAMS:-} /usr/local/lib/wirelab/server.js 2>>/logs/nodejs-h2.log
