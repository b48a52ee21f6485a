#!/bin/bash
# Measurement endpoint (endpoint contract): the server answers probes; the client waits for the
# sim and stays up so `wirelab sim-check` can run `probe rtt` / `probe rate` in it.
/setup.sh || exit 1
case "${ROLE:-}" in
  server) exec probe server -port 5201 -gso 32 ;; # -gso: UDP GRO, so GSO uploads arrive in batches
  client) /wait-for-it.sh sim:57832 -s -t 30 || exit 1; exec sleep infinity ;;
  *) exit 127 ;;
esac
