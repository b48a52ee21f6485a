#!/bin/bash
# wirelab endpoint script for the gRPC-web suite's converters (wirelab's grpcweb-converter).
#
# Contract: ROLE=edge (HTTP/2 gRPC in on TCP 443, HTTP/1.1 gRPC-web out) or ROLE=origin (HTTP/1.1
# gRPC-web in on TCP 80, HTTP/2 gRPC out); UPSTREAM is the next hop's URL (http://host:port, or
# https:// with /certs/ca.pem); CONVERTER_PARAMS are extra flags (e.g. --text, --misbehave ...).
# Exit 127: any other role. Logs: /logs/converter.jsonl (one line per request).
set -u
bin=/usr/local/bin/grpcweb-converter
if [ "${1:-}" = "--version" ]; then
  exec "$bin" --version
fi
# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh grpcweb-converter || exit 1
gate_role edge origin
listen=:443
[ "$role" = origin ] && listen=:80
[ -n "${UPSTREAM:-}" ] || { echo "grpcweb-converter: UPSTREAM is empty"; exit 2; }
ca=()
case "$UPSTREAM" in https://*) ca=(--upstream-ca /certs/ca.pem) ;; esac
gate_setup
echo "grpcweb-converter: $role on $listen -> $UPSTREAM"
# shellcheck disable=SC2086 # CONVERTER_PARAMS is a word list
h2c=()
[ "$role" = edge ] && h2c=(--h2c) # the edge takes cleartext HTTP/2 (prior knowledge)
exec wirelab-serve "$bin" --mode "$role" --listen "$listen" "${h2c[@]}" --upstream "$UPSTREAM" "${ca[@]}" \
  --log /logs/converter.jsonl ${CONVERTER_PARAMS:-} 2>>/logs/converter.log
