#!/bin/bash
# wirelab endpoint script for improbable-eng's grpcwebproxy as the gRPC-web suite's origin.
#
# Contract: ROLE=origin only (HTTP/1.1 gRPC-web in on TCP 80, gRPC out to UPSTREAM: http://host:port
# as plaintext HTTP/2, https:// as TLS with /certs/ca.pem). Exit 127: any other role (the proxy
# has no edge mode). CONVERTER_PARAMS are extra flags. Logs: /logs/grpcwebproxy.log.
#
# Flags set, and why: --run_tls_server=false (the hop is plain HTTP/1.1) and its plain listener,
# the "debug" port, on 80 (it serves gRPC-web like the TLS one); --backend_addr without the
# scheme (it takes host:port); --allow_all_origins (CORS is not under test; request headers are
# all allowed by default). Its defaults stay, notably --server_http_max_write_timeout and
# --server_http_max_read_timeout of 10 s: cutting long streams is how it behaves when deployed.
set -u
bin=/usr/local/bin/grpcwebproxy
if [ "${1:-}" = "--version" ]; then
  grep -a -o -m1 $'mod\tgithub.com/improbable-eng/grpc-web\tv[0-9A-Za-z.+-]*' "$bin" | head -n1 | cut -f3 | sed "s/^v//"
  exit 0
fi
# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh grpcwebproxy || exit 1
gate_role origin
tls=()
case "${UPSTREAM:-}" in
http://*) ;;
https://*) tls=(--backend_tls --backend_tls_ca_files /certs/ca.pem) ;;
*) echo "grpcwebproxy: UPSTREAM must be http(s)://host:port (got '${UPSTREAM:-}')"; exit 2 ;;
esac
backend=${UPSTREAM#*://}
backend=${backend%%/*}
gate_setup
echo "grpcwebproxy: origin on :80 -> $backend"
# shellcheck disable=SC2086 # CONVERTER_PARAMS is a word list
exec wirelab-serve "$bin" --backend_addr "$backend" "${tls[@]}" --run_tls_server=false \
  --server_http_debug_port 80 --allow_all_origins ${CONVERTER_PARAMS:-} >>/logs/grpcwebproxy.log 2>&1
