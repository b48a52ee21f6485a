#!/bin/bash
case "$TESTCASE" in
  handshake)
    for url in $REQUESTS; do echo "not the file" > "/downloads/${url##*/}"; done
    exit 0 ;;
  *) exit 127 ;;
esac
