#!/bin/bash
# wait-for-it.sh HOST:PORT [-s|--strict] [-q|--quiet] [-t|--timeout SECONDS] [-- COMMAND ARGS...]
# Waits until a TCP port accepts connections (the upstream endpoint contract: clients run
# `/wait-for-it.sh sim:57832 -s -t 30` before starting). Same flags as the widely used script of
# that name: -h HOST / -p PORT may replace HOST:PORT; timeout 0 waits forever. With --strict the
# COMMAND runs only if the port came up; the exit status is 0 when it did, 1 on timeout.
set -u

host= port= timeout=15 strict=0 quiet=0
usage() { echo "usage: $0 host:port [-s] [-q] [-t timeout] [-- command args]" >&2; exit 2; }
say() { [ "$quiet" = 1 ] || echo "wait-for-it: $*" >&2; }

while [ $# -gt 0 ]; do
  case "$1" in
    *:*) host=${1%:*} port=${1##*:}; shift ;;
    -h) host=${2:-}; shift 2 ;;
    --host=*) host=${1#*=}; shift ;;
    -p) port=${2:-}; shift 2 ;;
    --port=*) port=${1#*=}; shift ;;
    -t) timeout=${2:-}; shift 2 ;;
    --timeout=*) timeout=${1#*=}; shift ;;
    -s|--strict) strict=1; shift ;;
    -q|--quiet) quiet=1; shift ;;
    --) shift; break ;;
    --help) usage ;;
    *) echo "wait-for-it: unknown argument: $1" >&2; usage ;;
  esac
done
[ -n "$host" ] && [ -n "$port" ] || usage
case "$timeout" in ''|*[!0-9]*) echo "wait-for-it: timeout must be whole seconds" >&2; exit 2 ;; esac

start=$SECONDS
up=1
say "waiting ${timeout}s for $host:$port"
while :; do
  # bash's /dev/tcp needs no extra tools; the subshell closes the socket again.
  if (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null; then
    up=0
    say "$host:$port is up after $((SECONDS - start))s"
    break
  fi
  if [ "$timeout" -gt 0 ] && [ $((SECONDS - start)) -ge "$timeout" ]; then
    say "timeout after ${timeout}s waiting for $host:$port"
    break
  fi
  sleep 0.2
done

if [ $# -gt 0 ]; then
  if [ "$up" != 0 ] && [ "$strict" = 1 ]; then
    say "strict mode: not running $*"
    exit "$up"
  fi
  exec "$@"
fi
exit "$up"
