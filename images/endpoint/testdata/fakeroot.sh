#!/bin/bash
# fakeroot.sh WORK: runs an image's /run_endpoint.sh once per WORK/specs/<n>.env (its environment,
# NUL-separated KEY=VALUE) in a root built like the image, without Docker; gate_test.go starts it
# in namespaces of its own (`unshare --user --map-root-user --mount --net --fork`), so nothing it
# mounts or runs reaches the host, its files or its network.
#
# The root: the host's /usr read-only (bash, coreutils: what the scripts use of the base), of its
# /dev only null, zero, random and urandom; a tmpfs /usr/local and / for the rest; WORK/files
# lines "DEST<TAB>SOURCE" put in place (SOURCE a file of the repository, "-": a stub, "+x": DEST
# made executable); WORK/etc/* in /etc. A stub stands in for a program of the image and records
# each call as one line in /calls.log ("NAME ARGS..."); called with -check it runs
# WORK/real/NAME when there is one (a program that decides support itself).
# For each run: WORK/out/<n>.code (exit status), <n>.out (output), <n>.calls (the calls).
set -euo pipefail
work=$1
root=$work/root
mkdir -p "$root" "$work/out"
mount -t tmpfs tmpfs "$root"

mkdir "$root/usr"
mount --rbind -o ro /usr "$root/usr"
for d in bin sbin lib lib32 lib64 libx32; do
  if [ -L "/$d" ]; then
    ln -s "$(readlink "/$d")" "$root/$d"
  elif [ -d "/$d" ]; then
    mkdir "$root/$d"
    mount --rbind -o ro "/$d" "$root/$d"
  fi
done
mount -t tmpfs tmpfs "$root/usr/local"
mkdir -p "$root"/{dev,etc,tmp,run/lock,var,logs,www,downloads,certs,opt} "$root"/usr/local/{bin,sbin,lib/wirelab-test/real}
ln -s ../run "$root/var/run"
ln -s ../run/lock "$root/var/lock"
for dev in null zero random urandom; do
  : >"$root/dev/$dev"
  mount --bind "/dev/$dev" "$root/dev/$dev"
done
chmod 1777 "$root/tmp"
cp -r "$work/etc/." "$root/etc/"
[ -f /etc/ld.so.cache ] && cp /etc/ld.so.cache "$root/etc/"
printf 'test\n' | tee "$root/certs/cert.pem" "$root/certs/priv.key" "$root/certs/ca.pem" >/dev/null

stub=$root/usr/local/lib/wirelab-test/stub
cat >"$stub" <<'STUB'
#!/bin/bash
real=/usr/local/lib/wirelab-test/real/${0##*/}
if [ "${1:-}" = -check ] && [ -x "$real" ]; then exec "$real" "$@"; fi
{ printf '%s' "${0##*/}"; [ $# = 0 ] || printf ' %s' "$@"; printf '\n'; } >>/calls.log
STUB
chmod 755 "$stub"
cp -r "$work/real/." "$root/usr/local/lib/wirelab-test/real/"

while IFS=$'\t' read -r dest src; do
  mkdir -p "$root$(dirname "$dest")"
  if [ "$src" = - ]; then
    ln -sf /usr/local/lib/wirelab-test/stub "$root$dest"
  elif [ "$src" = +x ]; then
    chmod +x "$root$dest"
  else
    cp --remove-destination "$src" "$root$dest"
  fi
done <"$work/files"

# The runs, one chroot for all: WORK/specs and WORK/out are mounted into the root.
mkdir "$root/specs" "$root/out"
mount --bind "$work/specs" "$root/specs"
mount --bind "$work/out" "$root/out"
cat >"$root/usr/local/lib/wirelab-test/runs" <<'RUNS'
#!/bin/bash
# Each run on a clean /logs, /downloads, /tmp and an empty /calls.log.
shopt -s nullglob
for spec in /specs/*.env; do
  n=${spec##*/}
  n=${n%.env}
  old=(/logs/* /downloads/* /tmp/*)
  [ ${#old[@]} = 0 ] || rm -rf "${old[@]}"
  : >/calls.log
  mapfile -d '' env <"$spec"
  code=0
  timeout -k 2 20 /usr/bin/env -i "${env[@]}" /run_endpoint.sh >"/out/$n.out" 2>&1 || code=$?
  echo "$code" >"/out/$n.code"
  mv /calls.log "/out/$n.calls"
done
RUNS
chmod 755 "$root/usr/local/lib/wirelab-test/runs"
chroot "$root" /usr/local/lib/wirelab-test/runs
