#!/bin/bash
# wirelab endpoint script for Debian's nginx (server only): serves /www over QUIC on UDP 443.
#
# Contract: ROLE=server, TESTCASE, SSLKEYLOGFILE, QLOGDIR; mounts /www, /certs, /logs.
# Exit 0 ok, 1 error, 127 test case not supported.
# nginx 1.26 offers ALPN h3 and hq-interop at once (http3 + http3_hq) and picks per connection.
# Debian builds it against OpenSSL 3.5, which nginx 1.26 drives through its "OpenSSL compatibility
# layer" (src/event/quic/ngx_event_quic_openssl_compat.c). That layer has consequences:
# - no 0-RTT (it sets SSL_set_max_early_data(ssl, 0)): zerortt answers 127;
# - it takes OpenSSL's keylog callback for itself, nginx 1.26 has no directive to write keys, and
#   Debian's libssl is built without SSLKEYLOGFILE support: this server writes no keys.log. The
#   lab decrypts the trace with the client's keylog (the cell's keys.log merges both sides).
# Also 127: ecn (nginx sets no ECN marks), v2 (QUIC v1 only), connectionmigration (no preferred
# address), versionnegotiation. nginx writes no qlog. Logs: /logs/nginx-{error,access}.log.
# TESTCASE=h2 is the HTTP/2 suite's server (TLS over TCP 443): run_h2.sh. TESTCASE=bench (make
# bench) is the same server also listening for QUIC on UDP 443 (h3): run_h2.sh too.
set -u

case_conf=/etc/nginx/wirelab-case.conf

# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh nginx || exit 1
gate_role server
# chacha20: the server accepts what the client offers (OpenSSL's default TLS 1.3 suites include
# TLS_CHACHA20_POLY1305_SHA256). resumption: session tickets are on by default.
# amplificationlimit: nginx keeps to the 3x limit by itself and sends the longer chain it is given.
gate_testcase handshake transfer http3 retry chacha20 multiconnect resumption amplificationlimit h2 bench
case "$testcase" in h2|bench) exec /run_h2.sh ;; esac
gate_setup

{
  echo "listen 443 quic;"
  # IPv6 only where the container has an address (bind would fail otherwise).
  if ip -o -6 addr show scope global | grep -q inet6; then echo "listen [::]:443 quic;"; fi
  case "$testcase" in
    retry) echo "quic_retry on;" ;;
  esac
} >"$case_conf"

echo "nginx server: TESTCASE=$testcase, serving /www on UDP 443 (h3, hq-interop); $(nginx -v 2>&1)"
# shellcheck disable=SC2086 # SERVER_PARAMS is a word list
exec wirelab-serve nginx ${SERVER_PARAMS:-}
