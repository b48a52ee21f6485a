#!/bin/bash
# wirelab endpoint script for h2upload (client only): TESTCASE=upload POSTs a body to the server
# (server4:443) through the sim and measures how fast the server accepts it.
#
# CLIENT_PARAMS: -proto h2|h1, -size BYTES, -reps N (and -timeout), given by the runner.
# Writes /logs/upload.json (goodput per repetition; for h2 the server's SETTINGS, WINDOW_UPDATEs
# and the time blocked on flow control) and /logs/h2upload.txt. Exits 0 when upload.json is
# written (failed repetitions are recorded in it), 1 when it could not connect, 2 on bad
# parameters, 127 for any other ROLE/TESTCASE.
set -u

# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh h2upload || exit 1
gate_role client
gate_testcase upload
gate_setup
# shellcheck disable=SC2086 # CLIENT_PARAMS is a word list by design
/usr/local/bin/h2upload -addr server4:443 -servername server -ca /certs/ca.pem \
  -keylog "${SSLKEYLOGFILE:-}" -out /logs/upload.json ${CLIENT_PARAMS:-} > /logs/h2upload.txt 2>&1
code=$?
tail -n 12 /logs/h2upload.txt
exit $code
