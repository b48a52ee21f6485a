#!/bin/bash
# The haproxy image's HTTP/2 server role (TESTCASE=h2; run_endpoint.sh hands over to this script,
# which passes the gate again as an entry of its own): haproxy terminates TLS on TCP 443 with ALPN
# h2 and http/1.1 and forwards over HTTP/1.1 to lighttpd (files) and upload-sink (/upload) on
# loopback. Config: /etc/haproxy/haproxy-h2.cfg. TESTCASE=bench (make bench) sets WIRELAB_BENCH,
# which adds QUIC listeners (ALPN h3) on UDP 443 to the same frontend.
# Keys: haproxy writes the TLS secrets of each request's connection as a log line in NSS key log
# format to fd 3, which this script opens on SSLKEYLOGFILE.
# Logs: /logs/haproxy.log, /logs/lighttpd-error.log, /logs/upload-sink.log.
set -u
log=/logs/haproxy.log

# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh haproxy || exit 1
gate_role server
gate_testcase h2 bench

# make bench --gso: haproxy 3.0 sends every QUIC datagram on its own (UDP GSO came with 3.1, no
# switch in 3.0): QUIC_GSO off (or empty) is what it does, on is not supported (127).
case "${QUIC_GSO:-}" in
  ""|off) ;;
  on) gate_refuse "UDP GSO cannot be turned on (haproxy 3.0 has no GSO; it came with 3.1)" ;;
  *) gate_refuse "QUIC_GSO '$QUIC_GSO' not understood (on, off)" ;;
esac
# make bench --hystart: QUIC_HYSTART on / off is tune.quic.cc-hystart (haproxy's default: off),
# measured with its cubic only (the sweep's subject); empty keeps the default.
case "${QUIC_HYSTART:-}/${QUIC_CC:-cubic}" in
  /*) ;;
  on/cubic|off/cubic) export WIRELAB_QUIC_HYSTART=$QUIC_HYSTART ;;
  on/*|off/*) gate_refuse "HyStart++ is switched here with cubic only, not $QUIC_CC (QUIC_HYSTART=$QUIC_HYSTART)" ;;
  *) gate_refuse "QUIC_HYSTART '$QUIC_HYSTART' not understood (on, off)" ;;
esac

# make bench --congestion: QUIC_CC names the QUIC sender's algorithm; haproxy 3.0 has cubic (its
# default) and newreno (bbr only from 3.1): anything else is not supported (127).
case "${QUIC_CC:-}" in
  ""|cubic) export WIRELAB_QUIC_CC=cubic ;;
  reno) export WIRELAB_QUIC_CC=newreno ;;
  *) gate_refuse "QUIC congestion control '$QUIC_CC' not available (haproxy 3.0: cubic, reno as newreno)" ;;
esac

gate_setup

# IPv6 only where the container has an address (bind would fail otherwise).
if ip -o -6 addr show scope global | grep -q inet6; then export WIRELAB_IPV6=1; fi
protos="TCP 443 (h2, http/1.1)"
if [ "$testcase" = bench ]; then export WIRELAB_BENCH=1; protos="$protos and UDP 443 (h3)"; fi

# haproxy wants certificate chain and key in one file; /certs is read-only.
install -d -m 700 /run/haproxy
cat /certs/cert.pem /certs/priv.key >/run/haproxy/server.pem

# lighttpd drops to www-data before it opens its error log.
install -o www-data -g www-data -m 644 /dev/null /logs/lighttpd-error.log
lighttpd -f /etc/lighttpd/wirelab.conf || { echo "haproxy server: lighttpd did not start" >&2; exit 1; }
upload-sink -listen 127.0.0.1:8081 2>>/logs/upload-sink.log &
for port in 8080 8081; do
  /wait-for-it.sh 127.0.0.1:$port -q -t 10 || { echo "haproxy server: nothing listening on 127.0.0.1:$port" >&2; exit 1; }
done

exec 3>>"${SSLKEYLOGFILE:-/dev/null}"
echo "haproxy server: TESTCASE=$testcase, serving /www on $protos; $(haproxy -v | head -n1)"
# shellcheck disable=SC2086 # SERVER_PARAMS is a word list
exec wirelab-serve haproxy -db -f /etc/haproxy/haproxy-h2.cfg ${SERVER_PARAMS:-} 2>>"$log"
