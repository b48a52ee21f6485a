#!/bin/bash
# wirelab endpoint script for webtransport-go's interop client/server (upstream's WebTransport
# endpoint contract, docs/webtransport.md).
#
# Contract: ROLE=client|server, TESTCASE, REQUESTS, PROTOCOLS, SSLKEYLOGFILE, QLOGDIR; mounts /www,
# /downloads, /certs, /logs. Exit 0 ok, 1 error, 127 test case not supported.
# The programs read TESTCASE, REQUESTS, PROTOCOLS, SSLKEYLOGFILE and QLOGDIR themselves and log to
# /logs/log.txt; the server loads /certs/cert.pem + /certs/priv.key, serves one endpoint per folder
# of /www on UDP :443 and exits once its session is done; the client does not verify the
# server's certificate.
set -u

client=/usr/local/bin/webtransport-go-interop-client
server=/usr/local/bin/webtransport-go-interop-server

if [ "${1:-}" = "--version" ]; then
  grep -a -o -m1 $'mod\tgithub.com/quic-go/webtransport-go\tv[0-9A-Za-z.+-]*' "$server" | head -n1 | cut -f3 | sed "s/^v//"
  exit 0
fi

# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh webtransport-go || exit 1
gate_role client server
case "$role" in
  client) gate_testcase handshake transfer transfer-unidirectional-receive transfer-bidirectional-receive transfer-datagram-receive ;;
  server) gate_testcase handshake transfer transfer-unidirectional-send transfer-bidirectional-send transfer-datagram-send ;;
esac
gate_setup
export QUIC_GO_LOG_LEVEL=${QUIC_GO_LOG_LEVEL:-info}
if [ "$role" = client ]; then
  exec "$client"
fi
exec "$server"
