#!/bin/bash
# Runs the image's own endpoint; as a server, exits 3 as soon as its qlog records the client's
# CONNECTION_CLOSE (the connection is over: every file was served). Any other role or case runs
# the endpoint as it is (the compliance probe's 127 included).
if [ "${ROLE:-}" != server ] || [ "${TESTCASE:-}" != handshake ]; then
  exec /run_endpoint.sh "$@"
fi
/run_endpoint.sh "$@" &
until grep -qs '"name":"transport:connection_closed"' /logs/qlog/*.sqlog; do
  kill -0 $! 2>/dev/null || exit 1 # the server ended by itself
  sleep 0.05
done
echo "crash-server: the connection is closed; crashing (exit 3)"
exit 3
