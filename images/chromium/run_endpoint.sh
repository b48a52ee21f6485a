#!/bin/bash
# wirelab endpoint script for Chromium as a WebTransport client (upstream's WebTransport
# endpoint contract, docs/webtransport.md): the driver serves the client page on localhost and
# runs Chromium headless on it; see images/browser/driver.
#
# Contract: ROLE=client, TESTCASE, REQUESTS, PROTOCOLS, SSLKEYLOGFILE; mounts /www, /downloads,
# /certs, /logs. Exit 0 ok, 1 error, 127 role or test case not supported.
# Logs: /logs/chromium.log (the browser's output), /logs/netlog.json (its NetLog; make bench:
# netlog-bench-<n>.json per download, and bench.jsonl), keys in SSLKEYLOGFILE.
set -u

if [ "${1:-}" = "--version" ]; then
  dpkg-query -W -f '${Version}\n' chromium
  exit 0
fi

# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh chromium || exit 1
gate_role client
# make bench (TESTCASE=bench): each URL by a browser of its own over BENCH_PROTOCOL (h2, h3),
# timed from its NetLog (/logs/netlog-bench-<n>.json); the lab's cell limit bounds the downloads.
if [ "${TESTCASE:-}" = bench ]; then
  gate_testcase bench
  case "${BENCH_PROTOCOL:-}" in
    h2|h3) ;;
    *) gate_refuse "bench protocol '${BENCH_PROTOCOL:-}' not spoken here (h2, h3)" ;;
  esac
  gate_setup
  exec /usr/local/bin/wirelab-browser-driver --browser chromium --suite bench --protocol "$BENCH_PROTOCOL" --timeout 10m
fi
# The QUIC suite (make interop) never sets PROTOCOLS, the WebTransport suite always does.
if [ -z "${PROTOCOLS:-}" ]; then
  # HTTP/3 downloads with fetch(): h3 only (a browser has no hq-interop); no zerortt, resumption
  # or the rest, which a page cannot ask of the browser's connection handling.
  gate_testcase handshake transfer http3 multiplexing retry
  gate_setup
  exec /usr/local/bin/wirelab-browser-driver --browser chromium --suite quic
fi
gate_testcase handshake transfer transfer-unidirectional-receive transfer-bidirectional-receive transfer-datagram-receive
gate_setup
exec /usr/local/bin/wirelab-browser-driver --browser chromium
