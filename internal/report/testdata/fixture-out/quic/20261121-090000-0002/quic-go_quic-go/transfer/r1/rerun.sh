#!/bin/sh
# this cell alone, through wirelab:
wirelab quic --servers quic-go --clients quic-go --tests transfer --seed 11
