#!/bin/bash
# wirelab endpoint script for Debian's apache2 with mod_http2 (server role, TESTCASE=h2 only).
#
# Contract: ROLE=server, TESTCASE=h2, SSLKEYLOGFILE; mounts /www, /certs, /logs.
# Exit 0 ok, 1 error, 127 not supported. TLS on TCP 443 (IPv4 and, where the container has it,
# IPv6), ALPN h2 and http/1.1; /upload is counted by upload-sink behind mod_proxy_http.
# Keys: mod_ssl writes SSLKEYLOGFILE itself when the variable is set (httpd >= 2.4.49).
# Logs: /logs/apache2/{error,access}.log, /logs/upload-sink.log.
set -u

# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh apache2 || exit 1
gate_role server
gate_testcase h2
gate_setup

upload-sink -listen 127.0.0.1:8081 2>>/logs/upload-sink.log &
/wait-for-it.sh 127.0.0.1:8081 -q -t 10 || { echo "apache2 server: upload-sink not listening" >&2; exit 1; }

# Debian's envvars sets the user, run and lock directories apache2.conf refers to (and reads
# variables it may find unset); the logs go to /logs instead of /var/log/apache2.
set +u
# shellcheck disable=SC1091
. /etc/apache2/envvars
set -u
export APACHE_LOG_DIR=/logs/apache2
# shellcheck disable=SC2153 # APACHE_RUN_DIR and APACHE_LOCK_DIR come from envvars
mkdir -p "$APACHE_RUN_DIR" "$APACHE_LOCK_DIR" "$APACHE_LOG_DIR"

echo "apache2 server: TESTCASE=$testcase, serving /www on TCP 443 (h2, http/1.1); $(apache2 -v | head -n1)"
# shellcheck disable=SC2086 # SERVER_PARAMS is a word list
exec wirelab-serve apache2 -DFOREGROUND ${SERVER_PARAMS:-}
