#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# SnapDeals update jobs through the daemon, batched against one by one, A and B interleaved:
#   A: a daemon with [scheduler] max_batch_size = 1 (each job's partitions proven alone)
#   B: the same with max_batch_size = N (partitions of the N jobs proven together)
# over N update requests of SIZE (`cuzk-bench gen-vanilla snap`, data random:1..N), each round
# `cuzk-bench batch -c N -j N` against A then B. Prints each round's wall times and ratio A/B,
# then the median ratio.
# usage: bench/snap_batch.sh BUILD_DIR PARAM_DIR [SIZE=2KiB] [N=2] [ROUNDS=2]
# PARAM_DIR holds the update parameters of SIZE (`cuzk-bench setup --kind snap ...`).
set -euo pipefail
build=$(realpath "$1")
params=$(realpath "$2")
size=${3:-2KiB}
n=${4:-2}
rounds=${5:-2}
bench=$build/tools/cuzk-bench
daemon=$build/tools/cuzk-daemon
work=$(mktemp -d /tmp/cuzk-snapb-XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
now() { date +%s.%N; }

reqs=()
for s in $(seq "$n"); do
  "$bench" gen-vanilla snap --sector-size "$size" --data "random:$s" --sector-num "$s" \
    -o "$work/r-$s.json" >/dev/null
  reqs+=(--request "$work/r-$s.json")
done

start() { # start NAME BATCH: a daemon on $work/NAME.sock
  cat >"$work/$1.toml" <<EOF2
[daemon]
listen = "unix://$work/$1.sock"
[srs]
param_cache = "$params"
generate_test_params = false
[scheduler]
max_batch_size = $2
max_batch_wait_ms = 10000
[logging]
level = "debug"
EOF2
  "$daemon" -c "$work/$1.toml" 2>"$work/$1.log" &
  pids+=($!)
  for _ in $(seq 200); do
    grep -q " ready" "$work/$1.log" && break
    sleep 0.1
  done
  "$bench" preload -a "unix://$work/$1.sock" -c "snap-$(echo "$size" | tr 'A-Z' 'a-z' |
    sed 's/ib$//')" >/dev/null
}
start a 1
start b "$n"

run() { # run NAME: seconds for the N jobs
  local t0 t1
  t0=$(now)
  "$bench" batch -a "unix://$work/$1.sock" "${reqs[@]}" -c "$n" -j "$n" >"$work/$1.out" 2>&1 ||
    { cat "$work/$1.out" >&2; exit 1; }
  t1=$(now)
  grep -Eq "^failed: +0$" "$work/$1.out" || { cat "$work/$1.out" >&2; exit 1; }
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}
ratios=()
for r in $(seq "$rounds"); do
  ta=$(run a)
  tb=$(run b)
  ratio=$(awk -v a="$ta" -v b="$tb" 'BEGIN { printf "%.3f", a / b }')
  ratios+=("$ratio")
  echo "round $r (load $(cut -d' ' -f1 /proc/loadavg)): one by one $ta s, batched $tb s, ratio $ratio"
done
grep -c "(batch of $n)" "$work/b.log" | sed 's/^/partitions proven in batches of '"$n"' (daemon B, debug log): /' || true
printf '%s\n' "${ratios[@]}" | sort -n | awk '{ v[NR] = $1 } END {
  m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
  printf "median ratio %.3f over %d rounds (min %.3f, max %.3f)\n", m, NR, v[1], v[NR] }'
