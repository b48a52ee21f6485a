#!/bin/bash
# wirelab endpoint script for Debian's haproxy (server only): terminates QUIC on UDP 443 and
# serves /www through lighttpd on loopback (haproxy.cfg says why).
#
# Contract: ROLE=server, TESTCASE, SSLKEYLOGFILE, QLOGDIR; mounts /www, /certs, /logs.
# Exit 0 ok, 1 error, 127 test case not supported.
# ALPN h3 and hq-interop on the same listener: haproxy picks per connection.
# Debian's haproxy 3.0 is built against OpenSSL 3.5 with the QUIC OpenSSL compatibility layer
# ("limited-quic"), which does not do 0-RTT: zerortt answers 127. Also 127: ecn (haproxy 3.0 sets no
# ECN marks), connectionmigration (no preferred address), versionnegotiation.
# Keys: haproxy writes the TLS secrets of each request's connection as a log line in NSS key log
# format to fd 3, which this script opens on SSLKEYLOGFILE. No qlog.
# Logs: /logs/haproxy.log (haproxy's own), /logs/lighttpd-error.log.
# TESTCASE=h2 is the HTTP/2 suite's server (TLS over TCP 443): run_h2.sh. TESTCASE=bench (make
# bench) is the same frontend also listening for QUIC on UDP 443 (h3): run_h2.sh too.
set -u

log=/logs/haproxy.log

# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh haproxy || exit 1
gate_role server
# chacha20: the server accepts what the client offers (TLS_CHACHA20_POLY1305_SHA256 is among
# OpenSSL's default TLS 1.3 suites). resumption: TLS session tickets are on by default.
# v2: haproxy answers a v1 client that offers v2 with v2 (compatible version negotiation).
gate_testcase handshake transfer http3 retry chacha20 multiconnect resumption amplificationlimit v2 h2 bench
case "$testcase" in h2|bench) exec /run_h2.sh ;; esac
gate_setup

bind_opts=()
case "$testcase" in
  retry) bind_opts+=(quic-force-retry) ;;
esac
export WIRELAB_BIND_OPTS="${bind_opts[*]}"
WIRELAB_CLUSTER_SECRET=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
export WIRELAB_CLUSTER_SECRET

# haproxy wants certificate chain and key in one file; /certs is read-only.
install -d -m 700 /run/haproxy
cat /certs/cert.pem /certs/priv.key >/run/haproxy/server.pem

# lighttpd drops to www-data before it opens its error log.
install -o www-data -g www-data -m 644 /dev/null /logs/lighttpd-error.log
lighttpd -f /etc/lighttpd/wirelab.conf || { echo "haproxy server: lighttpd did not start" >&2; exit 1; }
/wait-for-it.sh 127.0.0.1:8080 -q -t 10 || { echo "haproxy server: lighttpd not listening" >&2; exit 1; }

exec 3>>"${SSLKEYLOGFILE:-/dev/null}"
echo "haproxy server: TESTCASE=$testcase, serving /www on UDP 443 (h3, hq-interop)${WIRELAB_BIND_OPTS:+, $WIRELAB_BIND_OPTS}; $(haproxy -v | head -n1)"
# shellcheck disable=SC2086 # SERVER_PARAMS is a word list
exec wirelab-serve haproxy -db -f /etc/haproxy/haproxy.cfg ${SERVER_PARAMS:-} 2>>"$log"
