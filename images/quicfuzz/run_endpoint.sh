#!/bin/bash
# wirelab endpoint script for the fuzzing client (make fuzz-live, make fuzz-repro).
#
# Contract: ROLE=client, TESTCASE=fuzz (a campaign) or replay (a finding's inputs), the run's
# configuration in /www/fuzz/config.json (written by wirelab: target, campaign, duration, seeds,
# corpus, the RFC rules with their codes), SSLKEYLOGFILE; everything it writes goes to
# /logs/fuzz/. Exit 0 when the campaign ran (findings are files, not exit codes), 1 when the
# server could not be fuzzed (no handshake, the file not served), 2 for a bad configuration.
set -u

if [ "${1:-}" = "--version" ]; then
  dpkg-query -W -f 'aioquic ${Version}\n' python3-aioquic
  exit 0
fi

# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh quicfuzz || exit 1
gate_role client
gate_testcase fuzz replay
gate_setup

echo "quicfuzz: TESTCASE=$testcase"
PYTHONPATH=/opt/wirelab-livefuzz exec python3 -u -m livefuzz /www/fuzz/config.json
