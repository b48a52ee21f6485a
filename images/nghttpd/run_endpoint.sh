#!/bin/bash
# wirelab endpoint script for Debian's nghttpd (nghttp2's HTTP/2 server; server role, TESTCASE=h2
# only).
#
# Contract: ROLE=server, TESTCASE=h2, SSLKEYLOGFILE; mounts /www, /certs, /logs.
# Exit 0 ok, 1 error, 127 not supported. TLS on TCP 443 (every address getaddrinfo gives: IPv4
# and, where the container has it, IPv6). Differences from the other h2 servers, all nghttpd's:
# - ALPN h2 only: nghttpd speaks no HTTP/1.1 over TLS.
# - nghttpd runs no code, so /upload cannot answer a byte count: with --echo-upload it stores a
#   POST or PUT body (any path) in a temporary file and answers with it once the request has
#   ended; the client counts the echoed bytes.
# Keys: none. nghttpd 1.64 ignores SSLKEYLOGFILE (seen: no file written with it set; its nghttp
# and h2load siblings do write one), and Debian's libssl has no SSLKEYLOGFILE support of its own.
# Log: /logs/nghttpd.log (errors; -v would log every frame).
set -u

# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh nghttpd || exit 1
gate_role server
gate_testcase h2
gate_setup

echo "nghttpd server: TESTCASE=$testcase, serving /www on TCP 443 (h2 only, POST/PUT echoed); $(nghttpd --version)"
# shellcheck disable=SC2086 # SERVER_PARAMS is a word list
exec wirelab-serve nghttpd --echo-upload -d /www ${SERVER_PARAMS:-} 443 /certs/priv.key /certs/cert.pem \
  >>/logs/nghttpd.log 2>&1
