#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# 8 MiB PoRep C2 and SnapDeals through cuzk-bench, the MSM bases decoded and then read in place
# (docs/groth16.md "Parameters read in place"): from one seed the same bytes, and the proof
# verifies. Runs only with CUZK_TEST_8MIB=1 (exit 77, skipped, otherwise): the first run writes
# the two 8 MiB TEST parameter sets into PARAM_DIR (--if-missing; docs/testing.md "Switches of
# the tests").
# usage: in_place_8mib.sh CUZK_BENCH PARAM_DIR
set -eu
[ "${CUZK_TEST_8MIB:-0}" = 1 ] || { echo "skipped: CUZK_TEST_8MIB is not 1"; exit 77; }
B=$1
P=$2
D=$(mktemp -d /tmp/cuzk-ip8-XXXXXX)
trap 'rm -rf "$D"' EXIT
. "$(dirname "$0")/lib.sh"

same() { # same WHAT INPUT-ARGS...: decoded and in place, seed 11, the same verified bytes
  what=$1
  shift
  "$B" prove "$@" --param-cache "$P" --deterministic 11 -o "$D/dec.bin" >"$D/dec.out" 2>&1 ||
    { cat "$D/dec.out" >&2; fail "$what: decoded prove"; }
  "$B" prove "$@" --param-cache "$P" --deterministic 11 --in-place -o "$D/ip.bin" \
    >"$D/ip.out" 2>&1 ||
    { cat "$D/ip.out" >&2; fail "$what: in-place prove"; }
  [ "$(wc -c <"$D/dec.bin")" -gt 0 ] && [ $(($(wc -c <"$D/dec.bin") % 192)) -eq 0 ] ||
    fail "$what: proof size"
  cmp -s "$D/dec.bin" "$D/ip.bin" || fail "$what: in place and decoded gave other bytes"
  "$B" verify "$@" --param-cache "$P" --proof "$D/ip.bin" >"$D/v.out" 2>&1 &&
    grep -q "valid" "$D/v.out" && ! grep -q INVALID "$D/v.out" ||
    { cat "$D/v.out" >&2; fail "$what: proof rejected"; }
  for f in dec ip; do
    echo "$what, $f: $(grep -h '^partition 0: synth [0-9]' "$D/$f.out")"
  done
}

"$B" setup --sector-size 8MiB --param-cache "$P" --if-missing
"$B" gen-vanilla porep --sector-size 8MiB --data random:21 -o "$D/c1.json" >/dev/null
same "PoRep 8 MiB" --c1 "$D/c1.json"

"$B" setup --kind snap --sector-size 8MiB --param-cache "$P" --if-missing
"$B" gen-vanilla snap --sector-size 8MiB --data random:22 -o "$D/r.json" >/dev/null
same "SnapDeals 8 MiB" --request "$D/r.json"
echo "in place 8 MiB: ok"
