#!/bin/bash
# Default entrypoint of wirelab/endpoint. Endpoint images replace this file with their own, which
# (as upstream) starts with /setup.sh and, for clients, /wait-for-it.sh sim:57832 -s -t 30 (ours:
# gate.sh's gate_setup, after its role and test case checks).
# The base implements no test case, so under a runner it answers 127 ("unsupported"); given a
# command it sets up the network and runs that command.
set -u
# shellcheck source=gate.sh
. /usr/local/lib/wirelab/gate.sh endpoint || exit 1
if [ $# -gt 0 ]; then
  gate_setup
  exec "$@"
fi
gate_refuse "no implementation in this image (wirelab/endpoint)"
