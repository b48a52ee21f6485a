#!/bin/bash
# wirelab endpoint script for grpc-go's interop client and server (gRPC-web suite).
#
# Contract (grpcweb suite): ROLE=server serves grpc.testing.TestService on TCP 443 (h2c, or TLS
# with /certs/cert.pem + priv.key when GRPC_TLS=1) for any TESTCASE. ROLE=client runs the interop
# test case TESTCASE against GRPC_TARGET (host:port, default server4:443; the runner points it at
# the chain's first hop) and exits with the client's status (0 passed; 1 with the client's FATAL
# line as its last words). Exit 127: not a role this image plays. Logs: /logs/grpc-interop.log.
set -u
client=/usr/local/bin/grpc-interop-client
server=/usr/local/bin/grpc-interop-server

if [ "${1:-}" = "--version" ]; then
  grep -a -o -m1 $'mod\tgoogle.golang.org/grpc\tv[0-9A-Za-z.+-]*' "$server" | head -n1 | cut -f3 | sed "s/^v//"
  exit 0
fi

# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh grpc-go || exit 1
gate_role client server
tls=()
if [ "$role" = server ]; then
  [ "${GRPC_TLS:-0}" = 1 ] && tls=(--use_tls --tls_cert_file /certs/cert.pem --tls_key_file /certs/priv.key)
  gate_setup
  echo "grpc-go interop server on TCP 443 ($([ "${GRPC_TLS:-0}" = 1 ] && echo TLS || echo h2c))"
  # shellcheck disable=SC2086 # SERVER_PARAMS is a word list
  exec wirelab-serve "$server" --port 443 "${tls[@]}" ${SERVER_PARAMS:-} 2>>/logs/grpc-interop.log
fi

# --- client: any interop test case (the client program knows them) ---
[ -n "$testcase" ] || gate_refuse "TESTCASE is empty (want one of grpc-go's interop test cases)"
target=${GRPC_TARGET:-server4:443}
[ "${GRPC_TLS:-0}" = 1 ] && tls=(--use_tls --ca_file /certs/ca.pem --server_host_override server4)
gate_setup -q --no-sim
gate_wait "$target"
# An address, not a name: grpc-go's DNS resolver would first ask for SRV/TXT records (grpclb,
# service config) that no lab network serves, 5 s each.
host=$(getent ahostsv4 "${target%:*}" | awk '{print $1; exit}')
# shellcheck disable=SC2086 # CLIENT_PARAMS is a word list
"$client" --server_host "${host:-${target%:*}}" --server_port "${target##*:}" --test_case "$testcase" \
  "${tls[@]}" ${CLIENT_PARAMS:-} >>/logs/grpc-interop.log 2>&1
code=$?
tail -n 3 /logs/grpc-interop.log
exit $code
