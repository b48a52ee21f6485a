#!/bin/bash
# wirelab endpoint script for Firefox ESR as a WebTransport client (upstream's WebTransport
# endpoint contract, docs/webtransport.md): the driver serves the client page on localhost and
# runs Firefox headless on it with a fresh profile; see images/browser/driver.
#
# Contract: ROLE=client, TESTCASE, REQUESTS, PROTOCOLS, SSLKEYLOGFILE; mounts /www, /downloads,
# /certs, /logs. Exit 0 ok, 1 error, 127 role or test case not supported.
# Logs: /logs/firefox.log (the browser's output), /logs/firefox-http.log* (MOZ_LOG: HTTP/3 and
# WebTransport), keys in SSLKEYLOGFILE.
set -u

if [ "${1:-}" = "--version" ]; then
  dpkg-query -W -f '${Version}\n' firefox-esr
  exit 0
fi

# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh firefox || exit 1
gate_role client
# The QUIC suite (make interop) never sets PROTOCOLS, the WebTransport suite always does. Not the
# QUIC suite: the page's fetch() of the server's origin reaches the server over h3 and gets its
# answer (firefox-http.log), but Firefox 153 withholds it from the page (NetworkError: the lab's
# servers send no CORS headers, and content.cors.disable does not lift that here).
if [ -z "${PROTOCOLS:-}" ]; then
  gate_refuse "the QUIC suite's downloads: fetch() of another origin without CORS headers is withheld from the page in Firefox 153"
fi
gate_testcase handshake transfer transfer-unidirectional-receive transfer-bidirectional-receive transfer-datagram-receive
gate_setup
exec /usr/local/bin/wirelab-browser-driver --browser firefox
