#!/bin/bash
# wirelab endpoint script for Firefox ESR as a WebTransport, HTTP/3 and bench client (upstream's
# WebTransport endpoint contract, docs/webtransport.md): the driver runs Firefox headless with a
# fresh profile on the client page (WebTransport) or on the page's scripts as an extension (the
# QUIC suite, make bench); see images/browser/driver.
#
# Contract: ROLE=client, TESTCASE, REQUESTS, PROTOCOLS, SSLKEYLOGFILE; mounts /www, /downloads,
# /certs, /logs. Exit 0 ok, 1 error, 127 role or test case not supported.
# Logs: /logs/firefox.log (the browser's output), /logs/firefox-http.log* (MOZ_LOG: HTTP,
# HTTP/3 and WebTransport; make bench: firefox-bench-<n>.log* per download, and bench.jsonl),
# neqo's qlog in /logs/qlog, keys in SSLKEYLOGFILE.
set -u

if [ "${1:-}" = "--version" ]; then
  dpkg-query -W -f '${Version}\n' firefox-esr
  exit 0
fi

# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh firefox || exit 1
gate_role client
# make bench (TESTCASE=bench): each URL by a browser of its own over BENCH_PROTOCOL (h2, h3),
# timed from its HTTP log (/logs/firefox-bench-<n>.log.moz_log); the lab's cell limit bounds the
# downloads.
if [ "${TESTCASE:-}" = bench ]; then
  gate_testcase bench
  case "${BENCH_PROTOCOL:-}" in
    h2|h3) ;;
    *) gate_refuse "bench protocol '${BENCH_PROTOCOL:-}' not spoken here (h2, h3)" ;;
  esac
  gate_setup
  exec /usr/local/bin/wirelab-browser-driver --browser firefox --suite bench --protocol "$BENCH_PROTOCOL" --timeout 10m
fi
# The QUIC suite (make interop) never sets PROTOCOLS, the WebTransport suite always does.
if [ -z "${PROTOCOLS:-}" ]; then
  # HTTP/3 downloads with fetch() from the driver's extension: h3 only (a browser has no
  # hq-interop); no zerortt, resumption or the rest, which a script cannot ask of the
  # browser's connection handling.
  gate_testcase handshake transfer http3 multiplexing retry
  gate_setup
  exec /usr/local/bin/wirelab-browser-driver --browser firefox --suite quic
fi
gate_testcase handshake transfer transfer-unidirectional-receive transfer-bidirectional-receive transfer-datagram-receive
gate_setup
exec /usr/local/bin/wirelab-browser-driver --browser firefox
