#!/bin/bash
# wirelab endpoint script for Debian's caddy (server role, TESTCASE=h2 only).
#
# Contract: ROLE=server, TESTCASE=h2, SSLKEYLOGFILE; mounts /www, /certs, /logs.
# Exit 0 ok, 1 error, 127 not supported. TLS on TCP 443 (one dual-stack socket where the container
# has IPv6), ALPN h2 and http/1.1; /upload is counted by upload-sink behind reverse_proxy.
#
# /etc/caddy/wirelab-h2.json is caddy's native JSON config, because the Caddyfile of 2.6 cannot
# set the server keylog. It sets: no admin API; no automatic certificates or HTTP->HTTPS
# redirect; protocols h1 and h2 (the suite is about TCP; caddy's default would also open UDP 443
# for h3); the run's certificate, and default_sni "server" for clients that send no SNI;
# insecure_secrets_log (the keylog) on SSLKEYLOGFILE; POST/PUT /upload through reverse_proxy
# (HTTP/1.1, streamed: caddy's default) to upload-sink, everything else from /www. HTTP/2 and
# proxy settings stay at caddy's defaults: measuring those is the point.
# TESTCASE=bench (make bench): the same config with protocols h1, h2 and h3 (caddy's default set),
# so caddy also serves HTTP/3 on UDP 443, the same files.
# Logs: /logs/caddy.log (errors and access), /logs/upload-sink.log.
set -u

conf=/run/caddy.json

# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh caddy || exit 1
gate_role server
gate_testcase h2 bench
# make bench --congestion: caddy's QUIC (quic-go) has no switch for its congestion control.
if [ -n "${QUIC_CC:-}" ]; then gate_refuse "QUIC congestion control '$QUIC_CC' cannot be chosen (quic-go has no switch)"; fi
# make bench --gso: caddy's QUIC is quic-go, whose UDP GSO QUIC_GO_DISABLE_GSO switches: QUIC_GSO
# on / off; empty keeps quic-go's default (GSO on where the kernel has it).
case "${QUIC_GSO:-}" in
  "") ;;
  on) export QUIC_GO_DISABLE_GSO=false ;;
  off) export QUIC_GO_DISABLE_GSO=true ;;
  *) gate_refuse "QUIC_GSO '$QUIC_GSO' not understood (on, off)" ;;
esac
# make bench --hystart: quic-go's slow start has no HyStart++ switch.
if [ -n "${QUIC_HYSTART:-}" ]; then gate_refuse "HyStart++ cannot be switched (quic-go has no switch; QUIC_HYSTART=$QUIC_HYSTART)"; fi

gate_setup

# The keylog path goes into the config (caddy reads no environment variable for it); without
# SSLKEYLOGFILE the setting is dropped. Plain path characters only, so nothing needs escaping.
case "${SSLKEYLOGFILE:-}" in
  "") sed '/@SSLKEYLOGFILE@/d' /etc/caddy/wirelab-h2.json >"$conf" ;;
  *[!A-Za-z0-9_./-]*) echo "caddy server: SSLKEYLOGFILE '$SSLKEYLOGFILE': want a plain path" >&2; exit 1 ;;
  *) sed "s|@SSLKEYLOGFILE@|$SSLKEYLOGFILE|" /etc/caddy/wirelab-h2.json >"$conf" ;;
esac

protos="TCP 443 (h2, http/1.1)"
if [ "$testcase" = bench ]; then
  sed -i 's|"protocols": \["h1", "h2"\]|"protocols": ["h1", "h2", "h3"]|' "$conf"
  grep -q '"h3"' "$conf" || { echo "caddy server: could not enable h3 in $conf" >&2; exit 1; }
  protos="$protos and UDP 443 (h3)"
fi

upload-sink -listen 127.0.0.1:8081 2>>/logs/upload-sink.log &
/wait-for-it.sh 127.0.0.1:8081 -q -t 10 || { echo "caddy server: upload-sink not listening" >&2; exit 1; }

echo "caddy server: TESTCASE=$testcase, serving /www on $protos; caddy $(caddy version)"
# shellcheck disable=SC2086 # SERVER_PARAMS is a word list
exec wirelab-serve caddy run --config "$conf" ${SERVER_PARAMS:-} 2>>/logs/caddy.log
