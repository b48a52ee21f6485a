#!/bin/bash
# wirelab endpoint script for h2probe (client only): TESTCASE=probe runs wirelab's bounded
# HTTP/2 robustness probes (rapid reset, CONTINUATION flood, the 2019 floods, MadeYouReset)
# over TLS against the server (server4:443) through the sim.
#
# Contract: ROLE=client, TESTCASE=probe, SSLKEYLOGFILE; mounts /certs (ca.pem), /logs.
# CLIENT_PARAMS: h2probe's flags, e.g. "-probes rapid-reset" (empty: every probe). Writes
# /logs/report.json (one verdict per probe) and /logs/h2probe.txt. Exit 0 report written,
# 1 error (sim or server not reachable), 2 bad input, 127 role or test case not supported.
set -u

h2probe=/usr/local/bin/h2probe
if [ "${1:-}" = "--version" ]; then
  echo 1
  exit 0
fi
# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh h2probe || exit 1
gate_role client
gate_testcase probe
gate_setup
gate_wait server4:443

# shellcheck disable=SC2086 # CLIENT_PARAMS is a word list by design
"$h2probe" -addr server4:443 -servername server -ca /certs/ca.pem \
  -keylog "${SSLKEYLOGFILE:-/logs/keys.log}" -out /logs/report.json ${CLIENT_PARAMS:-} \
  > /logs/h2probe.txt 2>&1
code=$?
tail -n 12 /logs/h2probe.txt
exit $code
