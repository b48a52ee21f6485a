#!/bin/bash
# The nginx image's HTTP/2 server role (TESTCASE=h2; run_endpoint.sh hands over to this script,
# which passes the gate again as an entry of its own): TLS on TCP 443 with ALPN h2 and http/1.1,
# /www by path, /upload counted by upload-sink behind proxy_pass. Config: /etc/nginx/h2.conf.
# TESTCASE=bench (make bench) adds "listen 443 quic" to the same server: h3 over UDP 443 next to
# h2 and http/1.1 over TCP 443, the same files (nginx's http3 directive is on by default).
# Keys: none (nginx 1.26 has no keylog directive, Debian's libssl ignores SSLKEYLOGFILE); a trace
# is decrypted with the client's keylog.
# Logs: /logs/nginx-{error,access}.log, /logs/upload-sink.log.
set -u

# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh nginx || exit 1
gate_role server
gate_testcase h2 bench
# make bench --congestion: nginx's QUIC has one congestion control of its own (NewReno-like), no switch.
if [ -n "${QUIC_CC:-}" ]; then gate_refuse "QUIC congestion control '$QUIC_CC' cannot be chosen (nginx has no switch)"; fi
# make bench --gso: QUIC_GSO on / off is nginx's quic_gso directive (ngx_http_v3_module, since
# 1.25; nginx's default is off, which empty keeps).
case "${QUIC_GSO:-}" in
  "") quic_gso= ;;
  on|off) quic_gso="quic_gso ${QUIC_GSO};" ;;
  *) gate_refuse "QUIC_GSO '$QUIC_GSO' not understood (on, off)" ;;
esac

# make bench --hystart: nginx's QUIC congestion control has no HyStart++ switch.
if [ -n "${QUIC_HYSTART:-}" ]; then gate_refuse "HyStart++ cannot be switched (nginx has no switch; QUIC_HYSTART=$QUIC_HYSTART)"; fi

gate_setup

{
  echo "listen 443 ssl;"
  # IPv6 only where the container has an address (bind would fail otherwise).
  if ip -o -6 addr show scope global | grep -q inet6; then echo "listen [::]:443 ssl;"; fi
  if [ "$testcase" = bench ]; then
    echo "listen 443 quic;"
    if ip -o -6 addr show scope global | grep -q inet6; then echo "listen [::]:443 quic;"; fi
    if [ -n "$quic_gso" ]; then echo "$quic_gso"; fi
  fi
} >/etc/nginx/wirelab-h2-listen.conf

upload-sink -listen 127.0.0.1:8081 2>>/logs/upload-sink.log &
/wait-for-it.sh 127.0.0.1:8081 -q -t 10 || { echo "nginx server: upload-sink not listening" >&2; exit 1; }

protos="TCP 443 (h2, http/1.1)"
[ "$testcase" = bench ] && protos="$protos and UDP 443 (h3)"
echo "nginx server: TESTCASE=$testcase, serving /www on $protos; $(nginx -v 2>&1)"
# shellcheck disable=SC2086 # SERVER_PARAMS is a word list
exec wirelab-serve nginx -c /etc/nginx/h2.conf ${SERVER_PARAMS:-}
