#!/bin/bash
# Upstream-style endpoint script: set up routes, then serve only the test cases it knows.
/setup.sh
case "$TESTCASE" in
  handshake) echo "would run $ROLE for handshake" ;;
  *) exit 127 ;;
esac
