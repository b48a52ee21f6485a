#!/bin/bash
# Measurement endpoint (endpoint contract): the server answers probes; the client waits for the
# sim and stays up so `wirelab sim-check` can run `probe rtt` / `probe rate` in it.
# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh probe || exit 1
gate_role client server
gate_setup
case "$role" in
  server) exec probe server -port 5201 -gso 32 ;; # -gso: UDP GRO, so GSO uploads arrive in batches
  client) exec sleep infinity ;;
esac
