#!/bin/bash
# Upstream-style WebTransport endpoint script (as upstream's images write them): routes via the
# sim, the client waits for the sim, then each program reads TESTCASE, REQUESTS and PROTOCOLS
# itself and answers 127 for what it does not support.
set -e
/setup.sh
echo "Using commit:" "$(cat commit.txt)"
if [ "$ROLE" == "client" ]; then
    /wait-for-it.sh sim:57832 -s -t 10
    echo "Test case: $TESTCASE"
    ./client $CLIENT_PARAMS
else
    ./server "$@"
fi
