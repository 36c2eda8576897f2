#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# WinningPoSt latency through the daemon while PoRep work runs, against the same on an idle
# daemon, A and B interleaved (issue #14's benchmark; docs/engine.md "Priorities").
#   A: one WinningPoSt (`cuzk-bench single --request`) on the idle daemon
#   B: the same while a 2 KiB PoRep batch (J jobs at once) is being proven: the WinningPoSt is
#      sent once the daemon reports a PoRep proof in the prover
# Both with the parameter sets preloaded. Prints each round's latencies (wall of `single`) and
# B/A, then the median ratio, and the WinningPoSt's own stage times from its result.
# BATCH > 1 runs the daemon with scheduler.max_batch_size = BATCH and max_batch_wait_ms = 10000
# (docs/engine.md "Batching": a lone WinningPoSt must not wait for a partner).
# usage: bench/post_latency.sh BUILD_DIR PARAM_DIR [SIZE=32GiB] [ROUNDS=5] [J=2] [BATCH=1]
# PARAM_DIR holds the 2 KiB PoRep and the SIZE WinningPoSt parameters
# (`cuzk-bench setup --sector-size 2KiB ...`, `setup --kind winning-post --sector-size SIZE ...`).
set -euo pipefail
build=$(realpath "$1")
params=$(realpath "$2")
size=${3:-32GiB}
rounds=${4:-5}
jobs=${5:-2}
batch=${6:-1}
bench=$build/tools/cuzk-bench
daemon=$build/tools/cuzk-daemon
work=$(mktemp -d /tmp/cuzk-lat-XXXXXX)
pid=""
bpid=""
cleanup() {
  [ -z "$bpid" ] || kill "$bpid" 2>/dev/null || true
  [ -z "$pid" ] || kill "$pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
now() { date +%s.%N; }

"$bench" gen-vanilla winning-post --sector-size "$size" -o "$work/win.json" >/dev/null
"$bench" gen-vanilla porep --sector-size 2KiB --data random:1 --miner-id 1000 --sector-num 1 \
  -o "$work/c1.json" >/dev/null
case $size in
2KiB) cid=winning-2k ;; 8MiB) cid=winning-8m ;; 512MiB) cid=winning-512m ;;
32GiB) cid=winning-32g ;; 64GiB) cid=winning-64g ;; *) echo "size $size?" >&2; exit 2 ;;
esac

cat >"$work/d.toml" <<EOF
[daemon]
listen = "unix://$work/d.sock"
[srs]
param_cache = "$params"
generate_test_params = false
[scheduler]
max_batch_size = $batch
max_batch_wait_ms = 10000
EOF
"$daemon" -c "$work/d.toml" 2>"$work/daemon.log" &
pid=$!
a="unix://$work/d.sock"
for _ in $(seq 200); do
  grep -q " ready" "$work/daemon.log" && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/daemon.log" >&2; exit 1; }
  sleep 0.1
done
"$bench" preload -a "$a" -c porep-2k >/dev/null
"$bench" preload -a "$a" -c "$cid" >/dev/null
"$bench" single -a "$a" --request "$work/win.json" >/dev/null 2>&1 # warm: buffers faulted in once

winning() { # prints the wall seconds of one WinningPoSt and keeps its result in $work/w.out
  local t0 t1
  t0=$(now)
  "$bench" single -a "$a" --request "$work/win.json" >"$work/w.out" 2>>"$work/single.err"
  t1=$(now)
  grep -q '^status:    COMPLETED' "$work/w.out" || { cat "$work/w.out" >&2; exit 1; }
  echo "$t1 - $t0" | bc -l
}

ratios=()
for r in $(seq "$rounds"); do
  idle=$(winning)
  "$bench" batch -a "$a" -t porep --c1 "$work/c1.json" --sector-num 1 -c "$jobs" -j "$jobs" \
    >"$work/batch.out" 2>&1 &
  bpid=$!
  for _ in $(seq 600); do # until a PoRep partition is in the prover
    "$bench" metrics -a "$a" | grep -q '^cuzk_prove_active 1$' && break
    sleep 0.05
  done
  busy=$(winning)
  stages=$(grep '^timings:' "$work/w.out")
  if grep -q '^batching:' "$work/w.out"; then # the daemon reports its wait for a batch
    stages="$stages; $(grep '^batching:' "$work/w.out")"
  fi
  wait "$bpid"
  bpid=""
  ratio=$(echo "$busy / $idle" | bc -l)
  ratios+=("$ratio")
  printf 'round %d: idle %.2f s, during PoRep %.2f s, ratio %.3f  (%s)\n' "$r" "$idle" "$busy" \
    "$ratio" "$stages"
done
printf '%s\n' "${ratios[@]}" | sort -g | awk '{ v[NR] = $1 } END {
  m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
  printf "median ratio (during PoRep / idle) over %d rounds: %.3f\n", NR, m }'
