#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# cuzk-bench end to end: shape, gen-vanilla -> verify-vanilla for 2 KiB sectors (raw JSON and Curio
# envelope), a tampered C1 is rejected, the 2 KiB parent cache has the digest of Filecoin's
# parent_cache.json, and bad arguments exit 2 with a message. usage: vanilla.sh CUZK_BENCH
set -eu
B=$1
D=$(mktemp -d /tmp/cuzk-cli-XXXXXX)
trap 'rm -rf "$D"' EXIT
. "$(dirname "$0")/lib.sh"

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

"$B" parent-cache --sector-size 2KiB -o "$D/pc.cache" >"$D/pc.out"
grep -q "sha256 840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97" "$D/pc.out" ||
  fail "2KiB V1_1 parent cache digest"
grep -q "v28-sdr-parent-494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b.cache" \
  "$D/pc.out" || fail "2KiB V1_1 parent cache name"

# the 2 KiB partition circuit's size, as docs/spec/porep-circuit.md §6.2 lists it
"$B" shape --sector-size 2KiB >"$D/shape.out"
grep -q "num_aux *2685673" "$D/shape.out" && grep -q "constraints incl. inputs *2687961" "$D/shape.out" &&
  grep -q "nnz A / B / C *6421005 / 2689006 / 5824682" "$D/shape.out" || fail "2KiB shape: $(cat "$D/shape.out")"

# synth-only prints the reference tool's lines; the counts are the 2 KiB partition's
"$B" synth-only --c1 "$D/c1.json" -i 2 --lc-inline 0 --perf-json "$D/perf.json" >"$D/synth.out"
grep -q "^=== Synthesis Microbenchmark ===" "$D/synth.out" &&
  grep -q "^  \[2\] wall=.*s  synth=.*s  circuits=1  constraints=2687921$" "$D/synth.out" &&
  grep -q "^=== Summary (2 iterations) ===" "$D/synth.out" &&
  grep -q '"task-clock-ns": [0-9]' "$D/perf.json" || fail "synth-only: $(cat "$D/synth.out")"
"$B" synth-only --c1 "$D/env.json" --mode witness --partition 0 | grep -q "constraints=2687921" ||
  fail "synth-only witness mode on an envelope"

set +e
"$B" gen-vanilla porep --sector-size 3KiB -o "$D/x.json" 2>/dev/null; [ $? -eq 2 ] || fail "bad size"
"$B" gen-vanilla porep --sector-size 2KiB --seed 00 -o "$D/x.json" 2>/dev/null; [ $? -eq 2 ] || fail "bad seed"
"$B" verify-vanilla --c1 "$D/missing.json" 2>/dev/null; [ $? -eq 1 ] || fail "missing file"
echo "cli vanilla: ok"
