#!/bin/bash
# wirelab endpoint script for Debian's curl (client only).
#
# Contract: ROLE=client, TESTCASE, REQUESTS, SSLKEYLOGFILE, QLOGDIR; mounts /downloads, /certs,
# /logs. Exit 0 ok, 1 error, 127 test case not supported.
# Debian trixie's curl 8.14 does HTTP/3 through OpenSSL 3.5's own QUIC stack (curl -V: no ngtcp2;
# lib/vquic/curl_osslq.c) and nghttp3. It offers ALPN h3 only (no hq-interop), so every test case
# runs over HTTP/3. curl writes SSLKEYLOGFILE itself; the OpenSSL backend writes no qlog.
# TESTCASE=bench: timed downloads for make bench, over HTTP/1.1, h2 or h3 (see below).
# Not supported (127), because this backend cannot:
# - resumption, zerortt: curl_osslq.c sets up TLS without a new-session callback, so no ticket ever
#   reaches curl's session cache (nothing to resume, no 0-RTT); --ssl-sessions is not built in.
# - keyupdate (initiating one), ecn, v2, connectionmigration (preferred address): no knobs for
#   these in OpenSSL's QUIC client as curl drives it.
set -u

log=/logs/curl.log

# shellcheck source=../endpoint/gate.sh
. /usr/local/lib/wirelab/gate.sh curl || exit 1
gate_role client
gate_testcase handshake transfer http3 retry chacha20 multiconnect amplificationlimit bench
gate_setup

# TESTCASE=bench (make bench): each URL of REQUESTS downloaded once by its own curl process, so
# on a fresh connection, in order; CLIENT_PARAMS picks the protocol (--http1.1, --http2,
# --http3-only) and the limit (--max-time). The body goes to /dev/null (the size is checked from
# curl's own count); curl's timings (-w '%{json}': time_starttransfer, time_total, size_download,
# http_version, exitcode, ...) go to /logs/bench.jsonl, one line per download, failed ones too.
if [ "$testcase" = bench ]; then
  read -r -a urls <<<"${REQUESTS:-}"
  [ ${#urls[@]} -gt 0 ] || { echo "curl client: REQUESTS is empty" >&2; exit 1; }
  # No qlog: OpenSSL would log every QUIC packet of a 10 MB download, work the TCP downloads
  # it is compared with do not do (the keylog, written once per connection, stays).
  unset QLOGDIR
  echo "curl client: TESTCASE=bench, ${#urls[@]} download(s), ${CLIENT_PARAMS:-}; $(curl --version | head -n1)"
  status=0
  for u in "${urls[@]}"; do
    echo "+ curl ${CLIENT_PARAMS:-} $u" >>"$log"
    # shellcheck disable=SC2086 # CLIENT_PARAMS is a word list
    curl --cacert /certs/ca.pem --silent --show-error --fail --output /dev/null \
      --write-out '%{json}\n' ${CLIENT_PARAMS:-} "$u" >>/logs/bench.jsonl 2>>"$log" || status=1
  done
  echo "curl client: bench done (exit $status)"
  exit $status
fi

read -r -a urls <<<"${REQUESTS:-}"
if [ ${#urls[@]} -eq 0 ]; then
  echo "curl client: REQUESTS is empty" >&2
  exit 1
fi

# --remote-name-all + --output-dir: each URL's last path segment lands in /downloads.
common=(--http3-only --cacert /certs/ca.pem --silent --show-error --fail
        --output-dir /downloads --remote-name-all
        --write-out '%{url} %{http_code} %{http_version} conn=%{num_connects} %{size_download}B %{time_total}s\n')
case "$testcase" in
  chacha20) common+=(--tls13-ciphers TLS_CHACHA20_POLY1305_SHA256) ;;
esac

# The client may start before the server listens (the lab starts both at once). Other clients
# retransmit their Initial; OpenSSL's QUIC client takes the ICMP port unreachable as fatal
# ("Connection refused", exit 7). So retry exactly that, for at most 10 s: no QUIC packet came back,
# so no handshake is repeated. Any other failure stands.
run() { # run [ARGS...] URL...: one curl process (one connection, reused for every URL)
  local out rc deadline=$((SECONDS + 10))
  out=$(mktemp)
  while :; do
    echo "+ curl ${common[*]} ${CLIENT_PARAMS:-} $*" >>"$log"
    # shellcheck disable=SC2086 # CLIENT_PARAMS is a word list
    curl "${common[@]}" ${CLIENT_PARAMS:-} "$@" >"$out" 2>&1
    rc=$?
    cat "$out" >>"$log"
    if [ $rc = 7 ] && grep -q 'Connection refused' "$out" && [ $SECONDS -lt $deadline ]; then
      echo "curl client: server not listening yet, retrying" | tee -a "$log"
      sleep 0.5
      continue
    fi
    rm -f "$out"
    return $rc
  done
}

echo "curl client: TESTCASE=$testcase, ${#urls[@]} URL(s); $(curl --version | head -n1)"
status=0
case "$testcase" in
  multiconnect) # a new connection (and handshake) per URL
    for u in "${urls[@]}"; do
      run "$u" || { status=1; break; }
    done ;;
  *)
    if [ ${#urls[@]} -gt 1 ]; then
      # Many URLs (multiplexing: 1999) in flight at once on one connection (--parallel waits for
      # the first connection and multiplexes onto it). At most 32 at a time: when the server's
      # stream credit (MAX_STREAMS) runs out, curl opens a second connection instead of waiting
      # (seen with 100 against nginx's 128: 1812 + 187 requests on two connections), and the
      # credit comes back only an RTT after streams end.
      run --parallel --parallel-max 32 "${urls[@]}" || status=1
    else
      run "${urls[@]}" || status=1
    fi ;;
esac

# Require every file, whatever curl's exit status said.
if [ $status = 0 ]; then
  for u in "${urls[@]}"; do
    f=${u##*/}
    [ -f "/downloads/$f" ] || { echo "curl client: missing /downloads/$f" >&2; status=1; }
  done
fi
if [ $status = 0 ]; then
  echo "curl client: done"
else
  echo "curl client: FAILED (see $log)" >&2
  tail -n 5 "$log" >&2
fi
exit $status
