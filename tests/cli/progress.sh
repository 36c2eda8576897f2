#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# cuzk-bench's progress lines (tools/cuzk-bench/progress.h) when stderr is not a terminal: setup
# (TEST parameters of the 2 KiB WindowPoSt, the cheapest set, vector by vector), gen-vanilla porep
# (sealing a 2 KiB sector step by step), gen-vanilla snap (the same, then the update's steps) and
# prove (partition k of n and its stage). Each prints plain lines whose counts never decrease, against one total,
# ending at 100% (CUZK_PROGRESS_INTERVAL=0: every update); with a long interval the first and last;
# -q prints none. ~10 s on 2 cores.
# usage: progress.sh CUZK_BENCH
set -eu
B=$1
D=$(mktemp -d /tmp/cuzk-progress-XXXXXX)
trap 'rm -rf "$D"' EXIT
. "$(dirname "$0")/lib.sh"

# check WHAT PREFIX UNIT FILE: FILE's progress lines "PREFIX: P% DONE/TOTAL UNIT ..." have
# monotone DONE, one TOTAL, at least 3 of them, and the last is "100% TOTAL/TOTAL"
check() {
  grep "^$2: " "$4" | sed -n "s|^$2: *\\([0-9]*\\)% \\([0-9]*\\)/\\([0-9]*\\) $3.*|\\1 \\2 \\3|p" \
    >"$D/counts"
  n=$(wc -l <"$D/counts")
  [ "$n" -ge 3 ] || { cat "$4" >&2; fail "$1: $n progress lines"; }
  awk 'NR > 1 && ($2 < d || $3 != t) { bad = 1 } { d = $2; t = $3; p = $1 }
       END { exit bad || p != 100 || d != t }' "$D/counts" ||
    { cat "$4" >&2; fail "$1: counts not monotone, or not ending at 100%"; }
}

# setup: every vector reported, then quiet
CUZK_PROGRESS_INTERVAL=0 "$B" setup --kind window-post --sector-size 2KiB --param-cache "$D/p" \
  >"$D/setup.out" 2>"$D/setup.err" || { cat "$D/setup.err" >&2; fail "setup"; }
check setup "setup StackedDrgWindow2KiBV1_1" points "$D/setup.err"
for v in tables ic l h a b_g1 b_g2 done; do
  grep -q " points ($v)" "$D/setup.err" || fail "setup: no line for vector $v"
done
grep -q 'TEST parameters' "$D/setup.out" || fail "setup: no result line on stdout"
# the file it generated is marked checked (its points are the generators' multiples): the first
# load skips the one-time check
ls "$D"/p/*.params.checked >/dev/null 2>&1 || fail "setup: no .params.checked beside the file"
rm -rf "$D/q"
"$B" setup --kind window-post --sector-size 2KiB --param-cache "$D/q" -q --threads 1 \
  >"$D/out" 2>"$D/err" || fail "setup -q --threads 1"
[ ! -s "$D/err" ] || { cat "$D/err" >&2; fail "setup -q wrote to stderr"; }

# gen-vanilla porep: sealing, layer by layer; an interval longer than the run prints its first and
# last lines only (an interval, not the run's speed, decides: 5 s by default, which a loaded
# machine's run may outlast)
CUZK_PROGRESS_INTERVAL=0 "$B" gen-vanilla porep --sector-size 2KiB -o "$D/c1.json" \
  >"$D/out" 2>"$D/seal.err" || fail "gen-vanilla"
check gen-vanilla "sealing 2KiB" steps "$D/seal.err"
[ "$(grep -c ' steps (layer)' "$D/seal.err")" = 2 ] || fail "gen-vanilla: not one line per layer"
CUZK_PROGRESS_INTERVAL=3600 "$B" gen-vanilla porep --sector-size 2KiB -o "$D/c1.json" \
  >"$D/out" 2>"$D/err" || fail "gen-vanilla (an hour's interval)"
grep '^sealing 2KiB: ' "$D/err" >"$D/lines"
[ "$(wc -l <"$D/lines")" -eq 2 ] && tail -n 1 "$D/lines" | grep -q '^sealing 2KiB: 100% ' ||
  { cat "$D/err" >&2; fail "gen-vanilla: not just the first and the last line at a long interval"; }
"$B" gen-vanilla porep --sector-size 2KiB -o "$D/c1.json" --quiet >"$D/out" 2>"$D/err" ||
  fail "gen-vanilla -q"
[ ! -s "$D/err" ] || fail "gen-vanilla --quiet wrote to stderr"

# gen-vanilla snap: the CC sector's sealing steps, then the update's three
CUZK_PROGRESS_INTERVAL=0 "$B" gen-vanilla snap --sector-size 2KiB -o "$D/upd.json" \
  >"$D/out" 2>"$D/snap.err" || { cat "$D/snap.err" >&2; fail "gen-vanilla snap"; }
check "gen-vanilla snap" "sealing and updating 2KiB" steps "$D/snap.err"
for s in tree_d layer tree_r_last tree_d_new encode_new tree_r_new done; do
  grep -q " steps ($s)" "$D/snap.err" || fail "gen-vanilla snap: no line for step $s"
done
grep -q '^sealing and updating 2KiB: 100% 10/10 steps (done)' "$D/snap.err" ||
  { cat "$D/snap.err" >&2; fail "gen-vanilla snap: not 10 steps (2 layers + 5 + 3)"; }
"$B" gen-vanilla snap --sector-size 2KiB -o "$D/upd.json" -q >"$D/out" 2>"$D/err" ||
  fail "gen-vanilla snap -q"
[ ! -s "$D/err" ] || fail "gen-vanilla snap -q wrote to stderr"
# -q taken by every long command, also the PoSt forms that draw no progress line
for kind in winning-post window-post; do
  "$B" gen-vanilla $kind --sector-size 2KiB -o "$D/$kind.json" -q >"$D/out" 2>"$D/err" ||
    { cat "$D/err" >&2; fail "gen-vanilla $kind -q"; }
  [ ! -s "$D/err" ] || fail "gen-vanilla $kind -q wrote to stderr"
done

# prove: partition 0 of 1, synthesis then proving, 100% once proven
"$B" gen-vanilla window-post --sector-size 2KiB -o "$D/req.json" >/dev/null 2>&1 ||
  fail "gen-vanilla window-post"
CUZK_PROGRESS_INTERVAL=0 "$B" prove --request "$D/req.json" --param-cache "$D/p" \
  -o "$D/proof" >"$D/out" 2>"$D/prove.err" || { cat "$D/prove.err" >&2; fail "prove"; }
check prove prove partitions "$D/prove.err"
grep -q '^prove:   0% 0/1 partitions (partition 0: synthesis)$' "$D/prove.err" ||
  fail "prove: no synthesis line"
grep -q '^prove:   0% 0/1 partitions (partition 0: proving)' "$D/prove.err" ||
  fail "prove: no proving line"
"$B" prove --request "$D/req.json" --param-cache "$D/p" -o "$D/proof" -q >"$D/out" 2>"$D/err" ||
  fail "prove -q"
[ ! -s "$D/err" ] || fail "prove -q wrote to stderr"
echo "progress: ok"
