#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# Synthetic sectors through cuzk-bench (docs/porep.md "Synthetic sectors"): one 2 KiB PoRep C1
# (gen-vanilla porep --synthetic) proven and verified against its own commitments, and verify
# refusing the proof for another synthetic C1; one 2 KiB SnapDeals update (gen-vanilla snap
# --synthetic) proven and verified; the markers in the files; --synthetic with --data refused. The
# checks without proofs (8 MiB and 32 GiB, tampered values, the daemon's refusal) are
# test_synthetic's and test_daemon_start's. ~35 CPU-s once the 2 KiB parameters exist.
# usage: synthetic.sh CUZK_BENCH PARAM_DIR
set -eu
B=$1
P=$2
D=$(mktemp -d /tmp/cuzk-synthetic-XXXXXX)
trap 'rm -rf "$D"' EXIT
. "$(dirname "$0")/lib.sh"

"$B" gen-vanilla porep --sector-size 2KiB --synthetic --miner-id 1000 --sector-num 3 \
  -o "$D/c1.json" >"$D/gen"
grep -q "SYNTHETIC sector (cuzk_synthetic_sector), consistent" "$D/gen" || fail "gen-vanilla output"
grep -q '"cuzk_synthetic_sector":1}$' "$D/c1.json" || fail "the C1's marker"
"$B" gen-vanilla porep --sector-size 2KiB --synthetic --sector-num 4 -o "$D/other.json" >/dev/null
rejects "--synthetic --data" "--synthetic is a CC sector" \
  "$B" gen-vanilla porep --sector-size 2KiB --synthetic --data zero -o "$D/x.json"
"$B" prove --c1 "$D/c1.json" --param-cache "$P" --miner-id 1000 --sector-num 3 -q \
  -o "$D/c1.proof" >"$D/out" || { cat "$D/out" >&2; fail "prove (PoRep)"; }
"$B" verify --c1 "$D/c1.json" --param-cache "$P" --proof "$D/c1.proof" | grep -qx "partition 0: valid" ||
  fail "verify (PoRep)"
rejects "the proof against another synthetic C1" "partition 0: INVALID" \
  "$B" verify --c1 "$D/other.json" --param-cache "$P" --proof "$D/c1.proof"

"$B" setup --kind snap --sector-size 2KiB --param-cache "$P" --if-missing -q >/dev/null
"$B" gen-vanilla snap --sector-size 2KiB --synthetic --sector-num 5 -o "$D/r.json" >"$D/gen"
grep -q "SYNTHETIC update (comm_c is the synthetic marker), consistent" "$D/gen" ||
  fail "gen-vanilla snap output"
"$B" verify-vanilla --kind snap --request "$D/r.json" | grep -q "valid" || fail "verify-vanilla snap"
"$B" prove --request "$D/r.json" --param-cache "$P" -q -o "$D/r.proof" >"$D/out" ||
  { cat "$D/out" >&2; fail "prove (SnapDeals)"; }
"$B" verify --request "$D/r.json" --param-cache "$P" --proof "$D/r.proof" | grep -q "valid" ||
  fail "verify (SnapDeals)"
echo "synthetic.sh: ok"
