#!/bin/bash
# wirelab endpoint script for the gRPC-web suite's conversion-case probe (wirelab's grpcweb-probe).
#
# Contract: TESTCASE names the case (conformance/grpcweb/cases.yml, kinds chain, edge, origin and
# bench); the same name goes to every container of a cell. ROLE=server plays the case's upstream
# (h2c gRPC on TCP 443), ROLE=origin its gRPC-web origin (HTTP/1.1 on TCP 80); both run until
# stopped and exit 127 at once when the role has no part in the case. ROLE=client runs the case's
# check against GRPC_TARGET (host:port, default server4:443), allowing PROBE_RTT (the profile's
# round trip, e.g. 40ms) ten times over in its time checks; CLIENT_PARAMS are extra flags (e.g.
# --bench-seconds 10). Client exit: 0 passed, 1 failed (last line "FAIL: ..."), 2 bad input,
# 127 not applicable. Logs: /logs/probe.jsonl (requests seen, the client's verdict),
# /logs/probe.log (output), /logs/bench.json (TESTCASE=bench: one metric per line). Where a case's
# server is a real grpc-go server (ROLE=server), it writes what it saw of each call to
# /logs/observed.jsonl (internal/observed), its last line written when it is stopped; a case with
# observed: true in cases.yml is judged on that file too, once the cell is fenced.
set -u
bin=/usr/local/bin/grpcweb-probe
if [ "${1:-}" = "--version" ]; then
  exec "$bin" --version
fi
# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh grpcweb-probe || exit 1
gate_role client server origin
# Any case of cases.yml: the program knows them (and answers 127 where the role has no part).
[ -n "$testcase" ] || gate_refuse "TESTCASE is empty (want a case of conformance/grpcweb/cases.yml)"

if [ "$role" != client ]; then
  listen=:443 observed=(--observed /logs/observed.jsonl)
  [ "$role" = origin ] && listen=:80 observed=()
  gate_setup
  exec wirelab-serve "$bin" --role "$role" --case "$testcase" --listen "$listen" \
    --log /logs/probe.jsonl "${observed[@]}" 2>>/logs/probe.log
fi

target=${GRPC_TARGET:-server4:443}
gate_setup -q --no-sim
case "$testcase" in
*_down_*) ;; # nothing listens behind the chain on purpose; the first hop may be down itself
*) gate_wait "$target" ;;
esac
# An address, not a name, as for grpc-go's interop client (images/grpc-go/run_endpoint.sh).
host=$(getent ahostsv4 "${target%:*}" | awk '{print $1; exit}')
# shellcheck disable=SC2086 # CLIENT_PARAMS is a word list
"$bin" --role client --case "$testcase" --target "${host:-${target%:*}}:${target##*:}" \
  --rtt "${PROBE_RTT:-0s}" --log /logs/probe.jsonl --bench-out /logs/bench.json ${CLIENT_PARAMS:-} \
  >>/logs/probe.log 2>&1
code=$?
tail -n 3 /logs/probe.log
exit $code
