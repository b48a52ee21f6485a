#!/bin/bash
# wirelab endpoint script for h2check (client only): TESTCASE=h2 runs wirelab's HTTP/2
# flow-control cases over TLS against the server (server4:443) through the sim.
#
# Contract: ROLE=client, TESTCASE=h2, SSLKEYLOGFILE; mounts /certs (ca.pem), /logs.
# CLIENT_PARAMS: h2check flags (the h2 suite passes -cases NAME -timeout SCALE); default all cases.
# Writes /logs/report.json (one verdict per case) and /logs/h2check.txt. Exit 0 report
# written, 1 error (sim or server not reachable), 2 bad input, 127 role or test case not supported.
set -u

h2check=/usr/local/bin/h2check
if [ "${1:-}" = "--version" ]; then
  echo 1
  exit 0
fi
# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh h2check || exit 1
gate_role client
gate_testcase h2
gate_setup
gate_wait server4:443

# CLIENT_PARAMS: h2check's flags from the runner (-cases NAME, -timeout SCALE); default all cases.
# shellcheck disable=SC2086 # CLIENT_PARAMS is a word list by design
"$h2check" -addr server4:443 -servername server -ca /certs/ca.pem \
  -keylog "${SSLKEYLOGFILE:-/logs/keys.log}" -out /logs/report.json ${CLIENT_PARAMS:--cases all} \
  > /logs/h2check.txt 2>&1
code=$?
tail -n 12 /logs/h2check.txt
exit $code
