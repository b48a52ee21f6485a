#!/bin/bash
# Default entrypoint of wirelab/endpoint. Endpoint images replace this file with their own, which
# (as upstream) starts with /setup.sh and, for clients, /wait-for-it.sh sim:57832 -s -t 30.
# The base implements no test case, so under a runner it answers 127 ("unsupported"); given a
# command it sets up the network and runs that command.
set -u
/setup.sh || exit 1
if [ "${ROLE:-}" = client ]; then
  /wait-for-it.sh sim:57832 -s -t 30 || exit 1
fi
if [ $# -gt 0 ]; then
  exec "$@"
fi
echo "wirelab/endpoint: no implementation in this image; test case '${TESTCASE:-}' unsupported" >&2
exit 127
