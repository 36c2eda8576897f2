#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# cuzk-bench end to end: the command table (each listed command's --help), shape, gen-vanilla ->
# verify-vanilla for 2 KiB sectors (raw JSON and Curio
# envelope), a tampered C1 is rejected, the 2 KiB parent cache has the digest of Filecoin's
# parent_cache.json, and bad arguments exit 2 with a message. usage: vanilla.sh CUZK_BENCH
set -eu
B=$1
D=$(mktemp -d /tmp/cuzk-cli-XXXXXX)
trap 'rm -rf "$D"' EXIT
. "$(dirname "$0")/lib.sh"

# the command table: every command --help lists answers its own --help; an unknown one exits 2
n=0
for c in $("$B" --help | sed -n 's/^  \([a-z-]*\)  .*/\1/p'); do
  "$B" "$c" --help >/dev/null 2>&1 || fail "cuzk-bench $c --help"
  n=$((n + 1))
done
[ $n -eq 16 ] || fail "cuzk-bench --help lists $n commands, not 16"
rc=0
"$B" no-such-command >/dev/null 2>&1 || rc=$?
[ $rc -eq 2 ] || fail "an unknown command: exit $rc"

"$B" gen-vanilla porep --sector-size 2KiB --data random:7 -o "$D/c1.json" >/dev/null
"$B" verify-vanilla --c1 "$D/c1.json" | grep -q "valid (1 partitions, 2 challenge proofs)" ||
  fail "2KiB V1_1 C1 not valid"
"$B" gen-vanilla porep --sector-size 2KiB --registered-proof 10 --envelope -o "$D/env.json" >/dev/null
"$B" verify-vanilla --c1 "$D/env.json" | grep -q valid || fail "synthetic envelope not valid"

# change one value of the second challenge's encoding proof: invalid, exit 1, named
python3 - "$D/c1.json" "$D/bad.json" <<'PY'
import json, sys
c1 = json.load(open(sys.argv[1]))
p = c1["vanilla_proofs"]["StackedDrg2KiBV1"][0][1]
p["encoding_proof"]["parents"][3][0] ^= 1
open(sys.argv[2], "w").write(json.dumps(c1, separators=(",", ":")))
PY
if "$B" verify-vanilla --c1 "$D/bad.json" 2>"$D/err"; then fail "tampered C1 accepted"; fi
grep -q "challenge 1" "$D/err" && grep -q "encoding_proof" "$D/err" || fail "error does not name the part: $(cat "$D/err")"

for t in 0 1; do # every core, then one: the same file
  "$B" parent-cache --sector-size 2KiB -o "$D/pc.cache" --threads $t >"$D/pc.out"
  grep -q "sha256 840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97" "$D/pc.out" ||
    fail "2KiB V1_1 parent cache digest (--threads $t)"
done
grep -q "v28-sdr-parent-494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b.cache" \
  "$D/pc.out" || fail "2KiB V1_1 parent cache name"

# the 2 KiB partition circuit's size, as docs/spec/porep-circuit.md §6.2 lists it
"$B" shape --sector-size 2KiB >"$D/shape.out"
grep -q "num_aux *2685673" "$D/shape.out" && grep -q "constraints incl. inputs *2687961" "$D/shape.out" &&
  grep -q "nnz A / B / C *6421005 / 2689006 / 5824682" "$D/shape.out" || fail "2KiB shape: $(cat "$D/shape.out")"

# synth-only prints the reference tool's lines; the counts are the 2 KiB partition's. Pre-compiled
# constraints (the default) and PROVE mode give the same a, b, c (--digest)
"$B" synth-only --c1 "$D/c1.json" -i 2 --digest --perf-json "$D/perf.json" >"$D/synth.out"
grep -q "^=== Synthesis Microbenchmark ===" "$D/synth.out" &&
  grep -q "^pce:        matrices recorded in .* s: 2687921 constraints, 1[0-9][0-9][0-9] coefficients" "$D/synth.out" &&
  grep -q "^  \[2\] wall=.*s  synth=.*s  circuits=1  constraints=2687921  (witness=.*s  spmv=.*s)$" "$D/synth.out" &&
  grep -q "^=== Summary (2 iterations) ===" "$D/synth.out" && grep -q "^peak RSS: " "$D/synth.out" &&
  grep -q '"task-clock-ns": [0-9]' "$D/perf.json" && grep -q '"mode": "pce"' "$D/perf.json" &&
  grep -q '"spmv_min": [0-9]' "$D/perf.json" && grep -q '"witness_min": [0-9]' "$D/perf.json" ||
  fail "synth-only: $(cat "$D/synth.out")"
"$B" synth-only --c1 "$D/c1.json" --synthesis prove --lc-inline 0 --digest >"$D/prove.out"
grep -q "^  \[1\] wall=.*s  synth=.*s  circuits=1  constraints=2687921$" "$D/prove.out" &&
  grep -q "^prove mode: ~0.3[0-9] GiB a partition (2687921 constraints x 96 B" "$D/prove.out" ||
  fail "synth-only --synthesis prove: $(cat "$D/prove.out")"
dg=$(grep "^abc digest: a=[0-9a-f]\{16\} " "$D/synth.out")
[ -n "$dg" ] && [ "$dg" = "$(grep "^abc digest:" "$D/prove.out")" ] || fail "a, b, c differ: pce and prove"
# PROVE mode refuses up front on a machine too small for it (MemAvailable stood in for)
if CUZK_BENCH_MEM_AVAILABLE=100000000 "$B" synth-only --c1 "$D/c1.json" --synthesis prove >"$D/x.out" 2>&1 ||
  ! grep -q "PROVE mode would need ~0.3 GiB for one partition, more than the 0.1 GiB available: use --synthesis pce" "$D/x.out"; then
  fail "PROVE mode refusal: $(cat "$D/x.out")"
fi
CUZK_BENCH_MEM_AVAILABLE=100000000 "$B" synth-only --c1 "$D/c1.json" | grep -q "constraints=2687921" ||
  fail "pce mode needs no PROVE-mode memory"
"$B" synth-only --c1 "$D/env.json" --mode witness --partition 0 | grep -q "constraints=2687921" ||
  fail "synth-only witness mode on an envelope"

set +e
"$B" gen-vanilla porep --sector-size 3KiB -o "$D/x.json" 2>/dev/null; [ $? -eq 2 ] || fail "bad size"
"$B" gen-vanilla porep --sector-size 2KiB --seed 00 -o "$D/x.json" 2>/dev/null; [ $? -eq 2 ] || fail "bad seed"
"$B" verify-vanilla --c1 "$D/missing.json" 2>/dev/null; [ $? -eq 1 ] || fail "missing file"
echo "cli vanilla: ok"
