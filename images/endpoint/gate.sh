# shellcheck shell=bash
# The endpoint contract's gate, one copy for every image (sourced by its /run_endpoint.sh): before
# anything touches the network it decides whether the image plays ROLE and implements TESTCASE,
# and answers 127 with one line naming image, role and test case when it does not (the upstream
# QUIC interop runner's "unsupported"; its compliance probe asks every image, in both roles, for
# an unknown TESTCASE and wants 127). Then it runs /setup.sh and, for a client, waits for the sim.
#
#   . /usr/local/lib/wirelab/gate.sh NAME || exit 1   NAME names the image in the lines below
#   gate_role ROLE...          the roles the image plays; sets $role (else 127)
#   gate_testcase CASE...      the TESTCASEs the role implements; sets $testcase (else 127)
#   gate_check CMD...          the program decides: CMD exits 0 (supported) or 127 (else 127)
#   gate_refuse WHY            127 for what the script's own checks find it cannot do
#   gate_setup [-q] [--no-sim] /setup.sh (-q: its output dropped), then a client waits for the
#                              sim unless --no-sim (exit 1 if either fails)
#   gate_wait HOST:PORT        wait up to 30 s for a TCP port (exit 1 if it does not come up)
#
# The `|| exit 1` matters: without it a missing gate would make every gate_* call "command not
# found", exit 127, and a broken image would pass for one that supports nothing.

gate_image=${1:?gate.sh: name the image}
role=${ROLE:-}
# shellcheck disable=SC2034 # for the sourcing script
testcase=${TESTCASE:-}

# gate_refuse WHY: answer "not supported" (127) with one line naming image, role and test case.
gate_refuse() {
  printf '%s: ROLE=%s TESTCASE=%s not supported: %s\n' "$gate_image" "${ROLE:-}" "${TESTCASE:-}" "$*"
  exit 127
}

gate_role() {
  local r
  for r; do
    [ "${ROLE:-}" = "$r" ] && return 0
  done
  gate_refuse "the roles here are $*"
}

gate_testcase() {
  local c
  for c; do
    [ "${TESTCASE:-}" = "$c" ] && return 0
  done
  gate_refuse "the $role test cases here are $*"
}

gate_check() {
  local why code
  why=$("$@" 2>&1)
  code=$?
  [ $code = 127 ] && gate_refuse "${why##*$'\n'}"
  if [ $code != 0 ]; then
    printf '%s\n' "$why" >&2
    exit $code
  fi
}

gate_setup() {
  local quiet=0 sim=1
  for opt; do
    case "$opt" in
      -q) quiet=1 ;;
      --no-sim) sim=0 ;;
      *) echo "gate_setup: unknown option $opt" >&2; exit 1 ;;
    esac
  done
  if [ $quiet = 1 ]; then
    /setup.sh >/dev/null || exit 1
  else
    /setup.sh || exit 1
  fi
  if [ "$role" = client ] && [ $sim = 1 ]; then
    /wait-for-it.sh sim:57832 -s -t 30 || { echo "$gate_image client: sim not ready" >&2; exit 1; }
  fi
}

gate_wait() {
  /wait-for-it.sh "$1" -s -t 30 -q || { echo "$gate_image $role: $1 does not accept TCP"; exit 1; }
}
