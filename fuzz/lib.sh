# lib.sh — sourced by the host-side fuzz scripts (campaign.sh, repro.sh, merge.sh, test.sh): variable
# checks and the one way wirelab starts a fuzz container (labelled, unprivileged, no network, removed
# at the end and on Ctrl-C).
FUZZ_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$FUZZ_DIR/.." && pwd)
FUZZ_IMAGE=${FUZZ_IMAGE:-wirelab/fuzz:latest}
OUT=${OUT:-out}
OUT_ABS=$(cd "$REPO" && mkdir -p "$OUT" && cd "$OUT" && pwd)

die2() { echo "$*" >&2; exit 2; }

# in_ci: CI=true (or another true value go's strconv.ParseBool takes, as internal/prereq does). In CI
# the fuzz image must hold every library source, so a target it cannot build is a failure there.
in_ci() { case ${CI:-} in 1 | t | T | true | TRUE | True) return 0 ;; *) return 1 ;; esac; }

fuzz_targets() { # all targets with a harness; planted-oob (test-only) unless $1 = all
  local d
  for d in "$FUZZ_DIR"/*/harness.c; do
    d=$(basename "$(dirname "$d")")
    [ "$d" = planted-oob ] && [ "${1:-}" != all ] && continue
    echo "$d"
  done
}

check_target() { # $1 = make's name for the command
  [ -f "$FUZZ_DIR/$TARGET/harness.c" ] || die2 "$1: TARGET: unknown target '$TARGET' (have: $(fuzz_targets all | tr '\n' ' '))"
}

# duration_s VALUE — seconds from 90, 90s, 10m, 2h; anything else is an error naming DURATION.
duration_s() {
  local v=$1
  [[ $v =~ ^([0-9]+)(s|m|h)?$ ]] || die2 "make fuzz: DURATION: bad value '$v' (want e.g. 30s, 10m, 1h)"
  local n=$((10#${BASH_REMATCH[1]})) u=${BASH_REMATCH[2]:-s}
  case $u in m) n=$((n * 60)) ;; h) n=$((n * 3600)) ;; esac
  [ "$n" -gt 0 ] || die2 "make fuzz: DURATION: must be more than 0 (got '$v')"
  echo "$n"
}

ensure_image() {
  if [ -n "${WIRELAB:-}" ]; then
    "$WIRELAB" images --out "$OUT" fuzz >/dev/null || exit 3
  fi
  docker image inspect "$FUZZ_IMAGE" >/dev/null 2>&1 || { echo "fuzz: image $FUZZ_IMAGE is missing: make images IMAGES=fuzz" >&2; exit 3; }
}

new_run_id() { echo "$(date -u +%Y%m%dT%H%M%SZ)-$(od -An -N2 -tx1 /dev/urandom | tr -d ' \n')"; }

# fuzz_docker RUN_ID [docker run options...] -- COMMAND... — the checkout read-only at /work, OUT at /out.
# FUZZ_CPUS=0.5 caps the container's CPU (a campaign beside a timing-sensitive run).
fuzz_docker() {
  local run_id=$1; shift
  local opts=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
  shift
  local name="wirelab-fuzz-$run_id"
  trap 'docker rm -f "'"$name"'" >/dev/null 2>&1; echo "fuzz: interrupted; container removed" >&2; exit 130' INT TERM
  docker run --rm --init --name "$name" --label "wirelab.run=$run_id" --label wirelab.suite=fuzz \
    --network none --cap-drop ALL --security-opt no-new-privileges --user "$(id -u):$(id -g)" -e HOME=/tmp \
    -v "$REPO:/work:ro" -v "$OUT_ABS:/out" -w /work ${FUZZ_CPUS:+--cpus "$FUZZ_CPUS"} "${opts[@]}" "$FUZZ_IMAGE" "$@" &
  local pid=$! rc
  wait $pid; rc=$?
  # wait returns early when a trapped signal arrives; the trap then removes the container.
  trap - INT TERM
  docker rm -f "$name" >/dev/null 2>&1
  return $rc
}
