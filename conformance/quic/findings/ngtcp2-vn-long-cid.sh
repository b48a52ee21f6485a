#!/usr/bin/env bash
# Reproduces a finding: one 28-byte datagram that parses as a Version Negotiation packet (long
# header, version 0) with a 21-byte Destination Connection ID aborts the ngtcp2 example server
# (h09gtlsserver 1.11.0: util.cc make_cid_key, Assertion `cid.size() <= NGTCP2_MAX_CIDLEN').
# Found when a corrupted server packet made the go-x-net client answer with such a packet
# (docs/results/2026-11-22-quic-findings.md). Runs the lab topology (probe client -- sim -- wirelab/ngtcp2 server)
# on its own run label, sends the datagram from the client, and reports the server's fate.
# Exit 0: reproduced (the server aborted); 1: the server survived (finding gone: say so in a new docs/results/ page).
set -euo pipefail
cd "$(dirname "$0")/../../.."
run="finding-ngtcp2-vn-$$"
dir=$(mktemp -d)
mkdir -p "$dir"/{sim,client,server,www,downloads,certs,www-client,downloads-server}
export WIRELAB_RUN=$run WIRELAB_PROJECT=wirelab-$run SIM_PROFILE=ideal SIM_LOGS=$dir/sim \
  CLIENT_LOGS=$dir/client SERVER_LOGS=$dir/server WWW_DIR=$dir/www DOWNLOADS_DIR=$dir/downloads \
  CERTS_DIR=$dir/certs CLIENT_WWW_DIR=$dir/www-client SERVER_DOWNLOADS_DIR=$dir/downloads-server CLIENT_IMAGE=wirelab/probe:latest SERVER_IMAGE=wirelab/ngtcp2:latest TESTCASE=handshake
compose() { docker compose -f compose/lab.yml "$@"; }
cleanup() { compose down -t 1 -v >/dev/null 2>&1 || true; rm -rf "$dir"; }
trap cleanup EXIT
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=server4 -days 1 \
  -addext subjectAltName=DNS:server,DNS:server4 -keyout "$dir/certs/priv.key" -out "$dir/certs/cert.pem" 2>/dev/null
cp "$dir/certs/cert.pem" "$dir/certs/ca.pem"
for n in 236 232 228 224; do # free /24s from the benchmarking range (a run may hold some)
  export CLIENT_NET4=198.19.$n SERVER_NET4=198.19.$((n + 1)) CLIENT_NET6=fd00:5717:2:$n SERVER_NET6=fd00:5717:2:$((n + 1))
  compose up -d >/dev/null 2>&1 && break
  compose down -t 1 >/dev/null 2>&1 || true
done
sleep 3
[ "$(docker inspect -f '{{.State.Status}}' "wirelab-$run-server-1")" = running ] || { echo "server did not start" >&2; exit 2; }
printf '\xc0\x00\x00\x00\x00\x15' >"$dir/client/vn.bin"             # long header, version 0, DCID length 21
head -c 21 /dev/zero >>"$dir/client/vn.bin"; printf '\x00' >>"$dir/client/vn.bin" # DCID, SCID length 0
compose exec -T client bash -c 'cat /logs/vn.bin > /dev/udp/server4/443' # one write: one datagram
sleep 2
state=$(docker inspect -f '{{.State.Status}} {{.State.ExitCode}}' "wirelab-$run-server-1")
if [ "$state" = "exited 134" ]; then
  echo "reproduced: the ngtcp2 server aborted (exit 134): $(grep -h Assertion "$dir/server/"*.log | head -1)"
  exit 0
fi
echo "not reproduced: the ngtcp2 server is '$state' after the datagram"
exit 1
