#!/bin/bash
# wirelab endpoint script for aioquic (Debian trixie's python3-aioquic) with wirelab's own adapter
# programs /opt/wirelab-aioquic/aioquic_client.py and aioquic_server.py.
#
# Contract: ROLE=client|server, TESTCASE, REQUESTS (client), SSLKEYLOGFILE, QLOGDIR; mounts /www,
# /downloads, /certs, /logs. Exit 0 ok, 1 error, 127 test case not supported.
# ALPN as upstream: hq-interop (HTTP/0.9) in every case but http3, which uses h3. The server
# accepts both ALPNs in every case and picks per connection, since some lab clients speak h3 only.
# Not supported (127), because aioquic 1.2 cannot do them:
# - ecn: aioquic neither sets ECT marks nor reads them (it sends no ACK_ECN frames).
# - connectionmigration: the server cannot advertise a preferred_address and the client ignores one.
# - versionnegotiation: not a case here (disabled upstream); the client cannot start with a
#   version it does not support.
set -u

adapter=/opt/wirelab-aioquic

if [ "${1:-}" = "--version" ]; then
  dpkg-query -W -f '${Version}\n' python3-aioquic
  exit 0
fi

# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh aioquic || exit 1
gate_role client server

# WebTransport (make webtransport): upstream's WebTransport runner always gives PROTOCOLS, the
# QUIC runner never does, so PROTOCOLS tells the two suites' handshake and transfer apart.
# aioquic_wt.py plays both roles; the side that only answers gets TESTCASE=transfer.
if [ -n "${PROTOCOLS:-}" ]; then
  case "$role" in
    client) gate_testcase handshake transfer transfer-unidirectional-receive transfer-bidirectional-receive transfer-datagram-receive ;;
    server) gate_testcase handshake transfer transfer-unidirectional-send transfer-bidirectional-send transfer-datagram-send ;;
  esac
  gate_setup
  echo "aioquic WebTransport $role: TESTCASE=$testcase"
  exec python3 -u "$adapter/aioquic_wt.py" --role "$role" --testcase "$testcase"
fi

case "$role" in
  # make bench: each URL on its own connection over h3 (the http3 mode), timed from its qlog.
  client) gate_testcase handshake transfer retry chacha20 keyupdate http3 v2 multiconnect resumption zerortt amplificationlimit bench ;;
  # One server for all of them: it always issues session tickets (resumption, zerortt),
  # accepts v1 and v2 (v2), loads the whole chain from cert.pem (amplificationlimit) and
  # answers a client's key update (keyupdate, whose server side upstream calls transfer).
  server) gate_testcase handshake transfer chacha20 keyupdate http3 v2 multiconnect resumption zerortt amplificationlimit retry bench ;;
esac
# make bench: h3 only; aioquic's congestion control is not switched here (QUIC_CC: 127).
# QUIC_GSO: aioquic sends each datagram with its own sendto (no UDP GSO): off (or empty) is
# what it does, on is not supported (127).
if [ "$role/$testcase" = server/bench ]; then
  if [ -n "${QUIC_CC:-}" ]; then gate_refuse "QUIC congestion control '$QUIC_CC' cannot be chosen here"; fi
  if [ -n "${QUIC_HYSTART:-}" ]; then gate_refuse "HyStart++ cannot be switched (aioquic has none; QUIC_HYSTART=$QUIC_HYSTART)"; fi
  case "${QUIC_GSO:-}" in
    ""|off) ;;
    on) gate_refuse "UDP GSO cannot be turned on (aioquic sends each datagram on its own)" ;;
    *) gate_refuse "QUIC_GSO '$QUIC_GSO' not understood (on, off)" ;;
  esac
fi

gate_setup

if [ "$role" = server ]; then
  args=()
  [ "$testcase" = retry ] && args+=(--retry)
  [ "$testcase" = http3 ] && args+=(--h3-first)
  # No qlog in bench cells: writing every packet's event would cost the CPU the timings measure.
  [ "$testcase" = bench ] && { args+=(--h3-first); unset QLOGDIR; }
  echo "aioquic server: TESTCASE=$testcase, serving /www on UDP 443"
  # shellcheck disable=SC2086 # SERVER_PARAMS is a word list
  exec wirelab-serve python3 -u "$adapter/aioquic_server.py" "${args[@]}" ${SERVER_PARAMS:-}
fi

# --- client ---
if [ "$testcase" = bench ]; then
  # shellcheck source=../endpoint/bench-client.sh
  . /usr/local/lib/wirelab/bench-client.sh
  # shellcheck disable=SC2086 # CLIENT_PARAMS is a word list
  fetch() { QLOGDIR=$2 python3 -u "$adapter/aioquic_client.py" --testcase http3 ${CLIENT_PARAMS:-} "$1"; }
  bench_downloads aioquic fetch
  exit $?
fi
if [ -z "${REQUESTS:-}" ]; then
  echo "aioquic client: REQUESTS is empty" >&2
  exit 1
fi
echo "aioquic client: TESTCASE=$testcase REQUESTS=$REQUESTS"
# shellcheck disable=SC2086 # CLIENT_PARAMS and REQUESTS are word lists
exec python3 -u "$adapter/aioquic_client.py" --testcase "$testcase" ${CLIENT_PARAMS:-} $REQUESTS
