#!/usr/bin/env bash
# Tests that `make interop` and `make test` set up a fresh machine by themselves: a copy of this
# tree (what a fresh clone holds) in a clean Debian trixie container that has only Go (the host's,
# mounted read-only), make and git — no debootstrap, jq or compose, and no Docker engine:
#  - as root, `make interop` installs debootstrap, jq and compose v2, then stops at the missing
#    engine with one line and exit 3 (make reports it as its own error);
#  - as a user, it names the exact command to run as root and exits 3, installing nothing;
#  - on a system that is not Debian, it says so and exits 3.
# The container is labelled and removed; it gets no capabilities and no Docker socket.
set -euo pipefail
cd "$(dirname "$0")/.."
image=${BASE_IMAGE:-wirelab/base:trixie}
goroot=$(go env GOROOT)
cas=${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt} # the host's trust store (it may add a proxy's CA)
id="setup-test-$$"
work=$(mktemp -d)
trap 'docker rm -f $(docker ps -aq --filter label=wirelab.run=$id) >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git ls-files -co --exclude-standard -z | grep -zv '^out/' | xargs -0 cp --parents -t "$work" 2>/dev/null || true
[ -f "$work/Makefile" ] || { echo "test-setup: could not copy the tree" >&2; exit 1; }

in_container() { # in_container USER SCRIPT: run SCRIPT in a fresh container on a copy of the tree
  docker run --rm --label wirelab.run="$id" --cap-drop ALL --cap-add CHOWN --cap-add DAC_OVERRIDE \
    --cap-add FOWNER --cap-add SETUID --cap-add SETGID --user "$1" \
    -v "$work:/src:ro" -v "$goroot:/usr/local/go:ro" -v "$cas:/etc/wirelab-host-ca.crt:ro" -e SSL_CERT_FILE=/etc/wirelab-host-ca.crt \
    -e PATH=/usr/local/go/bin:/usr/sbin:/usr/bin:/sbin:/bin -e GOFLAGS=-buildvcs=false -e GOCACHE=/tmp/gocache \
    -e GOPATH=/tmp/gopath -e GOPROXY="$(go env GOPROXY)" "$image" bash -c "$2" 2>&1
}
prepare='apt-get update -qq && apt-get install -y -qq make git >/dev/null && cp -r /src /tmp/w && chmod -R a+rwX /tmp/w'
failures=0
expect() { # expect NAME OUTPUT PATTERN
  if grep -qE "$3" <<<"$2"; then echo "ok   $1"; else echo "FAIL $1: want /$3/ in:"; sed 's/^/     | /' <<<"$2"; failures=$((failures + 1)); fi
}

out=$(in_container 0 "$prepare && cd /tmp/w && for t in debootstrap jq docker-compose; do command -v \$t && echo \"PRESENT \$t\"; done; make interop CLIENTS=quic-go SERVERS=quic-go TESTS=handshake; echo \"exit=\$?\"; for t in debootstrap jq docker-compose; do command -v \$t >/dev/null && echo \"now \$t\"; done" || true)
! grep -q '^PRESENT' <<<"$out" || { echo "FAIL the clean container already had a dependency"; failures=$((failures + 1)); }
expect "root: installs debootstrap" "$out" 'installed debootstrap'
expect "root: installs jq" "$out" 'installed jq'
expect "root: installs compose v2" "$out" 'installed docker-compose'
expect "root: all three present afterwards" "$(grep -c '^now ' <<<"$out")" '^3$'
expect "root: stops at the missing engine, one line" "$out" 'install-deps: the Docker engine is not reachable'
expect "root: exit 3 (make: Error 3)" "$out" 'Error 3'

out=$(in_container 0 "$prepare && useradd -m u && su u -c 'cd /tmp/w && make interop; echo exit=\$?'; command -v jq || echo 'jq still absent'" || true)
expect "user: names the exact command" "$out" 'missing debootstrap jq docker-compose: run as root: sudo bash ci/install-deps.sh'
expect "user: exit 3" "$out" 'Error 3'
expect "user: installs nothing" "$out" 'jq still absent'

out=$(in_container 0 "$prepare && printf 'ID=fedora\n' >/tmp/os && cd /tmp/w && WIRELAB_OS_RELEASE=/tmp/os make test; echo exit=\$?" || true)
expect "not Debian: says so, exit 3" "$out" 'this is not Debian \(fedora\).*'
expect "not Debian: make test stops before its stages" "$out" 'Error 3'
! grep -q '=== stage' <<<"$out" || { echo "FAIL make test ran stages without its prerequisites"; failures=$((failures + 1)); }

left=$(docker ps -aq --filter label=wirelab.run="$id" | wc -l)
expect "no container left" "$left" '^0$'
echo "test-setup: $((12 - failures)) passed, $failures failed"
[ "$failures" = 0 ]
