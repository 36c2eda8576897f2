#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Issue #16's daemon figure: two daemons, IFMA on and CUZK_NO_IFMA=1 (every IFMA path off: the
# MSMs' flushes and the NTT), each proving the same N 2 KiB PoRep C1s through `cuzk-bench batch`
# (2 in flight), alternated ROUNDS times (on, off, on, off): wall per batch and the ratio.
# usage: bench/ifma_daemon.sh BUILD_DIR PARAM_DIR [N=4] [ROUNDS=2]
# PARAM_DIR holds the 2 KiB parameters (`cuzk-bench setup --sector-size 2KiB --param-cache DIR`).
set -euo pipefail
build=$1; params=$(realpath "$2"); n=${3:-4}; rounds=${4:-2}
bench=$build/tools/cuzk-bench; daemon=$build/tools/cuzk-daemon
work=$(mktemp -d /tmp/cuzk-ifd-XXXXXX)
c1s=(); nums=()
for s in $(seq "$n"); do
  "$bench" gen-vanilla porep --sector-size 2KiB --data "random:$s" --miner-id 1000 --sector-num "$s" -o "$work/c1-$s.json" >/dev/null
  c1s+=(--c1 "$work/c1-$s.json"); nums+=(--sector-num "$s")
done
run() { # $1 = label, $2 = env
  cat >"$work/d.toml" <<EOT
[daemon]
listen = "unix://$work/d.sock"
[srs]
param_cache = "$params"
generate_test_params = false
EOT
  env $2 "$daemon" -c "$work/d.toml" 2>"$work/daemon-$1.log" & local pid=$!
  for _ in $(seq 200); do grep -q " ready" "$work/daemon-$1.log" && break; sleep 0.1; done
  "$bench" preload -a "unix://$work/d.sock" -c porep-2k >/dev/null
  local t0=$(date +%s.%N)
  "$bench" batch -a "unix://$work/d.sock" -t porep "${c1s[@]}" "${nums[@]}" -c "$n" -j 2 >"$work/b.out" 2>&1
  local t1=$(date +%s.%N)
  grep -Eq "^failed: +0$" "$work/b.out" || { cat "$work/b.out"; exit 1; }
  kill $pid; wait $pid || true; rm -f "$work/d.sock" "$work/d.sock.lock"
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f\n", b - a }'
}
for r in $(seq "$rounds"); do
  on=$(run on "X=1"); off=$(run off "CUZK_NO_IFMA=1")
  echo "round $r (load $(cut -d' ' -f1 /proc/loadavg)): IFMA $on s, no IFMA $off s, ratio $(awk -v a=$on -v b=$off 'BEGIN{printf "%.3f", a/b}')"
done
rm -rf "$work"
