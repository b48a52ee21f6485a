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
# Decide support before touching the network, so a compliance probe gets 127 anywhere.
if [ "${ROLE:-}" != client ] || [ "${TESTCASE:-}" != h2 ]; then
  echo "h2check: only ROLE=client TESTCASE=h2 (got ROLE='${ROLE:-}' TESTCASE='${TESTCASE:-}')"
  exit 127
fi

/setup.sh || exit 1
/wait-for-it.sh sim:57832 -s -t 30 || { echo "h2check: sim not ready" >&2; exit 1; }
/wait-for-it.sh server4:443 -s -t 30 -q || { echo "h2check: server4:443 does not accept TCP"; exit 1; }

# CLIENT_PARAMS: h2check's flags from the runner (-cases NAME, -timeout SCALE); default all cases.
# shellcheck disable=SC2086 # CLIENT_PARAMS is a word list by design
"$h2check" -addr server4:443 -servername server -ca /certs/ca.pem \
  -keylog "${SSLKEYLOGFILE:-/logs/keys.log}" -out /logs/report.json ${CLIENT_PARAMS:--cases all} \
  > /logs/h2check.txt 2>&1
code=$?
tail -n 12 /logs/h2check.txt
exit $code
