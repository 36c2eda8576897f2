#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Daemon throughput against one process per proof (issue #8's benchmark), A and B interleaved.
#   A: N sequential `cuzk-bench prove` processes (each loads the parameters itself)
#   B: `cuzk-bench batch -c N -j J` against one cuzk-daemon with the parameter set preloaded
# over the same N 2 KiB C1s (sectors 1..N of miner 1000), ROUNDS times A B A B ... Prints each
# round's wall times, ratio A/B and the daemon's CPU use during B (user+system seconds over
# wall x CPUs), then the median ratio.
# usage: bench/daemon_throughput.sh BUILD_DIR PARAM_DIR [N=6] [J=3] [ROUNDS=2] [extra TOML lines]
# PARAM_DIR holds the 2 KiB parameters (`cuzk-bench setup --sector-size 2KiB --param-cache DIR`).
set -euo pipefail
build=$(realpath "$1")
params=$(realpath "$2")
n=${3:-6}
j=${4:-3}
rounds=${5:-2}
extra=${6:-}
bench=$build/tools/cuzk-bench
daemon=$build/tools/cuzk-daemon
work=$(mktemp -d /tmp/cuzk-tp-XXXXXX)
pid=""
cleanup() {
  [ -z "$pid" ] || kill "$pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
now() { date +%s.%N; }
cpu_s() { awk '{ print ($14 + $15) / 100 }' "/proc/$1/stat"; } # utime + stime, USER_HZ = 100

c1s=()
nums=()
for s in $(seq "$n"); do
  "$bench" gen-vanilla porep --sector-size 2KiB --data "random:$s" --miner-id 1000 \
    --sector-num "$s" -o "$work/c1-$s.json" >/dev/null
  c1s+=(--c1 "$work/c1-$s.json")
  nums+=(--sector-num "$s")
done

cat >"$work/d.toml" <<EOF
[daemon]
listen = "unix://$work/d.sock"
[srs]
param_cache = "$params"
generate_test_params = false
$extra
EOF
"$daemon" -c "$work/d.toml" 2>"$work/daemon.log" &
pid=$!
for _ in $(seq 200); do
  grep -q " ready" "$work/daemon.log" && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/daemon.log" >&2; exit 1; }
  sleep 0.1
done
"$bench" preload -a "unix://$work/d.sock" -c porep-2k >/dev/null

ratios=()
for r in $(seq "$rounds"); do
  t0=$(now)
  for s in $(seq "$n"); do
    "$bench" prove --c1 "$work/c1-$s.json" --param-cache "$params" --miner-id 1000 \
      --sector-num "$s" -o "$work/p.bin" >/dev/null 2>&1
  done
  t1=$(now)
  c0=$(cpu_s "$pid")
  "$bench" batch -a "unix://$work/d.sock" -t porep "${c1s[@]}" "${nums[@]}" -c "$n" -j "$j" \
    >"$work/batch.out" 2>&1 || { cat "$work/batch.out" >&2; exit 1; }
  t2=$(now)
  c1=$(cpu_s "$pid")
  grep -Eq "^failed: +0$" "$work/batch.out" || { cat "$work/batch.out" >&2; exit 1; }
  ratio=$(awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "%.3f", (b - a) / (c - b) }')
  ratios+=("$ratio")
  awk -v a="$t0" -v b="$t1" -v c="$t2" -v u0="$c0" -v u1="$c1" -v cpus="$(nproc)" -v r="$r" \
    -v ld="$(cut -d' ' -f1 /proc/loadavg)" -v n="$n" 'BEGIN {
      printf "round %d (load %s): %d x prove %.1f s, batch %.1f s, ratio %.3f, daemon CPU %.1f s = %.1f %% of %d cores\n",
        r, ld, n, b - a, c - b, (b - a) / (c - b), u1 - u0, 100 * (u1 - u0) / ((c - b) * cpus), cpus }'
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '{ v[NR] = $1 } END {
  m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
  printf "median ratio %.3f over %d rounds (min %.3f, max %.3f)\n", m, NR, v[1], v[NR] }'
grep VmHWM "/proc/$pid/status" | sed 's/^/daemon /'
