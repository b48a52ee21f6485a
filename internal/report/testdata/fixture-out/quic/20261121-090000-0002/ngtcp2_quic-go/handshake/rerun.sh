#!/bin/sh
# this cell alone, through wirelab:
wirelab quic --servers ngtcp2 --clients quic-go --tests handshake --seed 7
