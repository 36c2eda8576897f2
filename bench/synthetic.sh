#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Synthetic sectors (docs/porep.md "Synthetic sectors", docs/snap.md "Synthetic updates"): the
# time and peak RSS of `cuzk-bench gen-vanilla porep|snap --synthetic` at every size (each run
# also checks what it wrote as C2 / the daemon would), then, with PARAM_DIR, the full proof and
# verification of the 8 MiB synthetic C1 and update with TEST parameters (generated into PARAM_DIR
# when missing: ~30 s for PoRep 8 MiB on 2 cores). The numbers of docs/performance.md
# "Synthetic sectors".
# usage: bench/synthetic.sh BUILD_DIR [PARAM_DIR]
set -euo pipefail
build=$(realpath "$1")
params=${2:-}
bench=$build/tools/cuzk-bench
work=$(mktemp -d /tmp/cuzk-syn-XXXXXX)
trap 'rm -rf "$work"' EXIT
timed() { # timed LABEL CMD...: one line "LABEL: wall s, peak RSS MB" and the command's last line
  local label=$1
  shift
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"$work/out"
  read -r wall kb <"$work/time"
  printf '%-34s %6.2f s  %7.1f MB  | %s\n' "$label" "$wall" "$(echo "$kb / 1024" | bc -l)" \
    "$(grep -m1 -o 'wrote.*' "$work/out" | cut -c1-90)"
}
for size in 2KiB 8MiB 512MiB 32GiB 64GiB; do
  timed "gen-vanilla porep --synthetic $size" \
    "$bench" gen-vanilla porep --sector-size "$size" --synthetic -o "$work/c1-$size.json"
  timed "gen-vanilla snap --synthetic $size" \
    "$bench" gen-vanilla snap --sector-size "$size" --synthetic -o "$work/snap-$size.json"
done
[ -n "$params" ] || exit 0
mkdir -p "$params"
"$bench" setup --kind porep --sector-size 8MiB --param-cache "$params" --if-missing -q
"$bench" setup --kind snap --sector-size 8MiB --param-cache "$params" --if-missing -q
timed "prove porep 8MiB (synthetic C1)" "$bench" prove --c1 "$work/c1-8MiB.json" \
  --param-cache "$params" --miner-id 1000 --sector-num 1 -q -o "$work/c1.proof"
cat "$work/out"
"$bench" verify --c1 "$work/c1-8MiB.json" --param-cache "$params" --proof "$work/c1.proof"
timed "prove snap 8MiB (synthetic update)" "$bench" prove --request "$work/snap-8MiB.json" \
  --param-cache "$params" -q -o "$work/snap.proof"
cat "$work/out"
"$bench" verify --request "$work/snap-8MiB.json" --param-cache "$params" --proof "$work/snap.proof"
