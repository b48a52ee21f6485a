#!/bin/bash
# wirelab endpoint script for vanguard-go as the gRPC-web suite's origin converter.
#
# Contract: ROLE=origin only (HTTP/1.1 gRPC-web in on TCP 80, gRPC over h2c out to UPSTREAM,
# http://host:port). Exit 127: any other role (vanguard is a server-side transcoder; no edge mode).
# CONVERTER_PARAMS are extra flags. Logs: /logs/converter.jsonl (one line per request),
# /logs/converter.log.
set -u
bin=/usr/local/bin/vanguard
if [ "${1:-}" = "--version" ]; then
  exec "$bin" --version
fi
# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh vanguard || exit 1
gate_role origin
case "${UPSTREAM:-}" in
http://*) ;;
*) echo "vanguard: UPSTREAM must be http://host:port (got '${UPSTREAM:-}')"; exit 2 ;;
esac
gate_setup
echo "vanguard: origin on :80 -> $UPSTREAM"
# shellcheck disable=SC2086 # CONVERTER_PARAMS is a word list
exec wirelab-serve "$bin" --listen :80 --upstream "$UPSTREAM" --log /logs/converter.jsonl \
  ${CONVERTER_PARAMS:-} 2>>/logs/converter.log
