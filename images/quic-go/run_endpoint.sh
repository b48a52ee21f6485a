#!/bin/bash
# wirelab endpoint script for quic-go's interop client/server.
#
# Contract: ROLE=client|server, TESTCASE, REQUESTS (client), SSLKEYLOGFILE, QLOGDIR; mounts /www,
# /downloads, /certs, /logs. Exit 0 ok, 1 error, 127 test case not supported.
# The quic-go programs read TESTCASE, SSLKEYLOGFILE and QLOGDIR themselves, log to /logs/log.txt,
# the server loads /certs/cert.pem + /certs/priv.key and serves /www on UDP :443, the client saves
# each URL's path under /downloads (and does not verify the server certificate).
set -u

client=/usr/local/bin/quic-go-interop-client
server=/usr/local/bin/quic-go-interop-server

if [ "${1:-}" = "--version" ]; then
  # The module version recorded in the binary's build info ("mod <path> <version> <sum>").
  grep -a -o -m1 $'mod\tgithub.com/quic-go/quic-go\tv[0-9A-Za-z.+-]*' "$server" | head -n1 | cut -f3 | sed "s/^v//"
  exit 0
fi

# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh quic-go || exit 1
gate_role client server
case "$role" in
  # Not versionnegotiation: the client's check (interop/client, unchanged from v0.59.1 to v0.65.0)
  # expects the error text "No compatible QUIC version found" but quic-go says "no compatible
  # QUIC version found", so it always fails.
  # make bench: each URL on its own connection over h3 (the http3 mode), timed from its qlog.
  client) gate_testcase handshake transfer retry keyupdate chacha20 multiconnect resumption zerortt http3 ecn bench ;;
  server) gate_testcase handshake transfer retry chacha20 multiconnect versionnegotiation resumption zerortt http3 keyupdate ecn bench ;;
esac
program_testcase=$testcase
case "$role/$testcase" in
  # quic-go uses ECN (ECT(0) marks, ACK_ECN counts) by default on Linux: a plain transfer.
  */ecn) program_testcase=transfer ;;
  # The server side of a key update test is a plain transfer server (quic-go answers the
  # client's key update by itself).
  server/keyupdate) program_testcase=transfer ;;
  # make bench: the http3 server (h3 only, no qlog); quic-go has no congestion-control switch.
  server/bench)
    if [ -n "${QUIC_CC:-}" ]; then gate_refuse "QUIC congestion control '$QUIC_CC' cannot be chosen (quic-go has no switch)"; fi
    if [ -n "${QUIC_HYSTART:-}" ]; then gate_refuse "HyStart++ cannot be switched (quic-go has no switch; QUIC_HYSTART=$QUIC_HYSTART)"; fi
    program_testcase=http3; unset QLOGDIR ;;
esac
# QUIC_GSO (make bench --gso): on / off switches quic-go's UDP GSO (QUIC_GO_DISABLE_GSO); empty
# keeps the default below.
case "${QUIC_GSO:-}" in
  ""|on|off) ;;
  *) gate_refuse "QUIC_GSO '$QUIC_GSO' not understood (on, off)" ;;
esac

gate_setup

export TESTCASE=$program_testcase
export QUIC_GO_LOG_LEVEL=${QUIC_GO_LOG_LEVEL:-info}
# UDP GSO off by default. It was off because wirelab endpoints cannot turn off TX offload (no
# NET_ADMIN), so GSO batches crossed the veth unsegmented and appeared in the server-side trace as
# one oversized "datagram" (seen: udp.length up to 14418) that tshark could not decrypt. That no
# longer happens: the sim writes its own pcaps from wire-sized segments (it cuts every GSO batch
# into the packets the kernel would have sent, images/sim/vnet.go). The default stays off so the
# interop baseline does not change; make bench --gso on,off measures both (QUIC_GSO).
case "${QUIC_GSO:-}" in
  on) export QUIC_GO_DISABLE_GSO=false ;;
  off) export QUIC_GO_DISABLE_GSO=true ;;
  *) export QUIC_GO_DISABLE_GSO=${QUIC_GO_DISABLE_GSO:-true} ;;
esac

if [ "$role" = client ] && [ "$testcase" = bench ]; then
  # shellcheck source=../endpoint/bench-client.sh
  . /usr/local/lib/wirelab/bench-client.sh
  fetch() { TESTCASE=http3 QLOGDIR=$2 "$client" "$1"; }
  bench_downloads quic-go fetch
  exit $?
fi

if [ "$role" = client ]; then
  echo "quic-go client: TESTCASE=$TESTCASE REQUESTS=${REQUESTS:-}"
  # shellcheck disable=SC2086 # CLIENT_PARAMS and REQUESTS are word lists
  exec "$client" ${CLIENT_PARAMS:-} ${REQUESTS:-}
fi

echo "quic-go server: TESTCASE=$TESTCASE, serving /www on UDP 443"
# shellcheck disable=SC2086
exec wirelab-serve "$server" ${SERVER_PARAMS:-}
