#!/bin/bash
# wirelab endpoint script for connectrpc conformance v1.0.7 with a gRPC-web chain as the server
# under test (gRPC-web suite, role conformance: the image plays both ends of the cell).
#
# Contract: ROLE=server runs the module's reference server behind the chain on TCP 443, h2c
# (prior knowledge) and HTTP/1.1 on the same port (`sut-forward serve`: the reference server
# serves one HTTP version per process, so two run on loopback and each connection is relayed by
# its first bytes). ROLE=client runs connectconformance --mode server once per config, sut-forward
# being the "server under test" that names the chain's entry: /connectconformance/grpc-h2c.yaml
# (gRPC over h2c) against GRPC_TARGET (the edge; default server4:443), grpcweb-http1.yaml
# (gRPC-web over HTTP/1.1) against GRPCWEB_TARGET (the origin; default server4:443). It prints
# each config's totals and failing (and hung) case names, then last
# `connectconformance: <passed> passed, <failed> failed` (summed over the configs), and exits 0
# iff nothing failed, 1 otherwise. TESTCASE must be connectconformance (or empty); exit 127 for any
# other, or another role. Logs: /logs/cases.jsonl (every case's outcome, a JSON line each: the
# suite's sub-cases), /logs/connectconformance.txt (the runner's whole output, --vv:
# every case sent and answered, then the failures with their messages), /logs/referenceserver.log.
#
# A call the chain never completes would stall connectconformance for good (it has no per-call
# time limit); `sut-forward run` ends such a run once cases are outstanding and no result came
# for CONFORMANCE_STALL (12s), counts those cases as hung (failed) and reruns the config without
# them. CONFORMANCE_PARALLEL (64) is the runner's -p, CONFORMANCE_LIMIT (5m) the time limit per
# config. CLIENT_PARAMS are extra connectconformance flags (--trace, --run PATTERN, ...).
set -u
if [ "${1:-}" = "--version" ]; then
  grep -a -o -m1 $'mod\tconnectrpc.com/conformance\tv[0-9A-Za-z.+-]*' /usr/local/bin/connectconformance | head -n1 | cut -f3 | sed "s/^v//"
  exit 0
fi
# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh connectconformance || exit 1
gate_role client server
if [ "$role" = server ]; then
  gate_setup
  echo "connectconformance: reference server on TCP 443 (h2c and HTTP/1.1)"
  exec wirelab-serve /usr/local/bin/sut-forward serve --listen :443 \
    --referenceserver /usr/local/bin/referenceserver 2>>/logs/referenceserver.log
fi

[ -z "$testcase" ] || gate_testcase connectconformance
export GRPC_TARGET=${GRPC_TARGET:-server4:443} GRPCWEB_TARGET=${GRPCWEB_TARGET:-server4:443}
gate_setup -q --no-sim
for target in "$GRPC_TARGET" "$GRPCWEB_TARGET"; do
  gate_wait "$target"
done
echo "connectconformance: gRPC (h2c) -> $GRPC_TARGET, gRPC-web (HTTP/1.1) -> $GRPCWEB_TARGET"
# shellcheck disable=SC2086 # CLIENT_PARAMS is a word list
exec /usr/local/bin/sut-forward run --connectconformance /usr/local/bin/connectconformance \
  --conf /connectconformance/grpc-h2c.yaml --conf /connectconformance/grpcweb-http1.yaml \
  --parallel "${CONFORMANCE_PARALLEL:-64}" --stall "${CONFORMANCE_STALL:-12s}" --limit "${CONFORMANCE_LIMIT:-5m}" \
  --log /logs/connectconformance.txt --cases /logs/cases.jsonl -- ${CLIENT_PARAMS:-}
