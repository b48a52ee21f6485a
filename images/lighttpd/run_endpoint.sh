#!/bin/bash
# wirelab endpoint script for Debian's lighttpd with its built-in HTTP/2 (server role, TESTCASE=h2
# only).
#
# Contract: ROLE=server, TESTCASE=h2, SSLKEYLOGFILE; mounts /www, /certs, /logs.
# Exit 0 ok, 1 error, 127 not supported. TLS on TCP 443 (IPv4 and, where the container has it,
# IPv6), ALPN h2 and http/1.1; /upload is counted by upload-sink behind mod_proxy.
# Keys: none (lighttpd 1.4 has no keylog directive, Debian's libssl ignores SSLKEYLOGFILE); a
# trace is decrypted with the client's keylog.
# Logs: /logs/lighttpd-error.log, /logs/upload-sink.log.
set -u

# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh lighttpd || exit 1
gate_role server
gate_testcase h2
gate_setup

# The IPv6 socket takes the global ssl.* settings but needs ssl.engine of its own.
if ip -o -6 addr show scope global | grep -q inet6; then
  # shellcheck disable=SC2016 # lighttpd's syntax, not a shell expansion
  echo '$SERVER["socket"] == "[::]:443" { ssl.engine = "enable" }' >/run/lighttpd-ipv6.conf
else
  : >/run/lighttpd-ipv6.conf
fi

upload-sink -listen 127.0.0.1:8081 2>>/logs/upload-sink.log &
/wait-for-it.sh 127.0.0.1:8081 -q -t 10 || { echo "lighttpd server: upload-sink not listening" >&2; exit 1; }

# lighttpd drops to www-data before it opens its error log.
install -o www-data -g www-data -m 644 /dev/null /logs/lighttpd-error.log
echo "lighttpd server: TESTCASE=$testcase, serving /www on TCP 443 (h2, http/1.1); $(lighttpd -v | head -n1)"
# shellcheck disable=SC2086 # SERVER_PARAMS is a word list
exec wirelab-serve lighttpd -D -f /etc/lighttpd/wirelab-h2.conf ${SERVER_PARAMS:-}
