#!/bin/bash
# wirelab endpoint script for Chromium as a WebTransport client (upstream's WebTransport
# endpoint contract, docs/webtransport.md): the driver serves the client page on localhost and
# runs Chromium headless on it; see images/browser/driver.
#
# Contract: ROLE=client, TESTCASE, REQUESTS, PROTOCOLS, SSLKEYLOGFILE; mounts /www, /downloads,
# /certs, /logs. Exit 0 ok, 1 error, 127 role or test case not supported.
# Logs: /logs/chromium.log (the browser's output), /logs/netlog.json (its NetLog), keys in
# SSLKEYLOGFILE.
set -u

if [ "${1:-}" = "--version" ]; then
  dpkg-query -W -f '${Version}\n' chromium
  exit 0
fi

# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh chromium || exit 1
gate_role client
# The QUIC suite (make interop) never sets PROTOCOLS, the WebTransport suite always does.
if [ -z "${PROTOCOLS:-}" ]; then
  # HTTP/3 downloads with fetch(): h3 only (a browser has no hq-interop); no zerortt, resumption
  # or the rest, which a page cannot ask of the browser's connection handling.
  gate_testcase handshake transfer http3 multiplexing
  gate_setup
  exec /usr/local/bin/wirelab-browser-driver --browser chromium --suite quic
fi
gate_testcase handshake transfer transfer-unidirectional-receive transfer-bidirectional-receive transfer-datagram-receive
gate_setup
exec /usr/local/bin/wirelab-browser-driver --browser chromium
