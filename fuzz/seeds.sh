#!/bin/bash
# seeds.sh [TARGET...] — regenerate seed corpora from fuzz/qif/*.qif (bin/encode-seeds.sh in the fuzz
# container) and merge what adds coverage into fuzz/<target>/corpus. Default: every QPACK/H3 target.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
targets=${*:-$(fuzz_targets)}
mounts=()
for t in $targets; do
  [ -f "$FUZZ_DIR/$t/harness.c" ] || die2 "seeds.sh: TARGET: unknown target '$t'"
  mkdir -p "$FUZZ_DIR/$t/corpus"
  mounts+=(-v "$FUZZ_DIR/$t/corpus:/work/fuzz/$t/corpus")
done
ensure_image
# shellcheck disable=SC2086
fuzz_docker "seeds-$(new_run_id)" "${mounts[@]}" -- /work/fuzz/bin/encode-seeds.sh $targets
