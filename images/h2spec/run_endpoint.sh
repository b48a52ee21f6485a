#!/bin/bash
# wirelab endpoint script for h2spec (client only): TESTCASE=h2spec runs h2spec over TLS against
# the server (server4:443) through the sim.
#
# CLIENT_PARAMS: h2spec's spec selection (e.g. "http2/6.9"; empty: all) and flags, given by the
# runner (-o TIMEOUT scaled to the profile's RTT). Writes /logs/junit.xml (h2spec's own report:
# failures land in <error>) and /logs/h2spec.txt; exits with h2spec's status (1 when a case
# failed or it could not connect — the runner reads the report, not the status).
set -u

h2spec=/usr/local/bin/h2spec
if [ "${1:-}" = "--version" ]; then
  grep -a -o -m1 $'mod\tgithub.com/summerwind/h2spec\tv[0-9A-Za-z.+-]*' "$h2spec" | head -n1 | cut -f3 | sed "s/^v//; s/+incompatible//"
  exit 0
fi
# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh h2spec || exit 1
gate_role client
gate_testcase h2spec
gate_setup
gate_wait server4:443
# shellcheck disable=SC2086 # CLIENT_PARAMS is a word list by design
"$h2spec" --tls --insecure --host server4 --port 443 --junit-report /logs/junit.xml ${CLIENT_PARAMS:-} \
  > /logs/h2spec.txt 2>&1
code=$?
tail -n 8 /logs/h2spec.txt
exit $code
