#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# PoRep C2 end to end at 2 KiB: setup (--if-missing into PARAM_DIR: test parameters, ~1.5-2.5 min
# and 1.1 GB on 2 cores the first time) -> gen-vanilla -> prove (decoded, then in place: the same
# bytes from one seed) -> verify, the proof also
# accepted by the independent @noble/curves
# verifier; rejected: another sector's C1, a flipped proof byte, a C1 whose seed or comm_r was
# changed. prove refuses, before any proving, a wrong miner/sector and a tampered vanilla proof.
# CUZK_TEST_C2=0 skips it (exit 77); the sanitizer build registers it only with CUZK_TEST_C2=1.
# usage: c2.sh CUZK_BENCH PARAM_DIR [NODE VERIFY_MJS]
set -eu
[ "${CUZK_TEST_C2:-1}" != 0 ] || { echo "skipped: CUZK_TEST_C2=0"; exit 77; }
B=$1
P=$2
NODE=${3:-}
MJS=${4:-}
D=$(mktemp -d /tmp/cuzk-c2-XXXXXX)
trap 'rm -rf "$D"' EXIT
. "$(dirname "$0")/lib.sh"
edit() { # edit IN OUT PYTHON-STATEMENT-ON-d
  python3 -c "import json, sys; d = json.load(open(sys.argv[1])); $3; json.dump(d, open(sys.argv[2], 'w'))" "$1" "$2"
}

"$B" setup --sector-size 2KiB --param-cache "$P" --if-missing
vk=$(ls "$P"/v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.vk) ||
  fail "parameter file name"
"$B" gen-vanilla porep --sector-size 2KiB --data random:3 --miner-id 1000 --sector-num 7 -o "$D/c1.json" >/dev/null
"$B" gen-vanilla porep --sector-size 2KiB --data random:4 -o "$D/other.json" >/dev/null

# refused before proving
rejects "wrong sector number" "replica_id: not the one of miner 1000 sector 8" \
  "$B" prove --c1 "$D/c1.json" --param-cache "$P" --miner-id 1000 --sector-num 8 -o "$D/x.bin"
edit "$D/c1.json" "$D/tampered.json" \
  "r = d['vanilla_proofs']['StackedDrg2KiBV1'][0][0]['replica_column_proofs']['drg_parents'][1]['column']['rows']; r[0][0] ^= 1"
rejects "tampered column row" "vanilla proofs do not verify: partition 0" \
  "$B" prove --c1 "$D/tampered.json" --param-cache "$P" -o "$D/x.bin"
# a synthetic C1 (made-up contents for synth-only benchmarks): labelled, refused by prove, and
# synthesized by synth-only
"$B" gen-vanilla porep --sector-size 2KiB --synthetic-for-bench -o "$D/synthetic.json" | grep -q SYNTHETIC ||
  fail "gen-vanilla --synthetic-for-bench"
grep -q '"cuzk_synthetic_for_bench":1}$' "$D/synthetic.json" || fail "the synthetic label"
rejects "synthetic C1" "cuzk_synthetic_for_bench: a synthetic C1 made up for benchmarks" \
  "$B" prove --c1 "$D/synthetic.json" --param-cache "$P" -o "$D/x.bin"
"$B" synth-only --c1 "$D/synthetic.json" --mode witness | grep -q "constraints=2687921" ||
  fail "synth-only of the synthetic C1"
# bytes a synthesized partition holds per constraint: the pre-compiled path only the witness (32
# a variable), its kinds and the densities (docs/performance.md: at most 40), PROVE mode also
# every linear combination (~200). A measurement, not a memory check: the sanitizer stage leaves
# it to the gcc one (CUZK_TEST_C2_SYNTH_BYTES=0)
per_constraint() {
  "$B" synth-only --c1 "$D/synthetic.json" --synthesis "$1" |
    sed -n 's|^system: .*(\([0-9.]*\) B/constraint)$|\1|p'
}
if [ "${CUZK_TEST_C2_SYNTH_BYTES:-1}" != 0 ]; then
  b=$(per_constraint pce)
  awk -v b="$b" 'BEGIN { exit !(b >= 32 && b <= 40) }' || fail "pce: $b bytes a constraint"
  b=$(per_constraint prove)
  awk -v b="$b" 'BEGIN { exit !(b >= 150) }' || fail "PROVE mode: $b bytes a constraint"
fi
[ ! -e "$D/x.bin" ] || fail "a proof was written for a refused C1"

"$B" prove --c1 "$D/c1.json" --param-cache "$P" --miner-id 1000 --sector-num 7 --deterministic 3 \
  -o "$D/proof.bin"
[ "$(wc -c <"$D/proof.bin")" -eq 192 ] || fail "proof size"
# the MSM bases read in place: the same bytes from the same seed (CUZK_TEST_C2_IN_PLACE=0 leaves
# this second proof out: the sanitizer stage of .ci/run makes one proof per kind)
if [ "${CUZK_TEST_C2_IN_PLACE:-1}" != 0 ]; then
  "$B" prove --c1 "$D/c1.json" --param-cache "$P" --deterministic 3 --in-place -o "$D/ip.bin" \
    >/dev/null 2>&1
  cmp -s "$D/proof.bin" "$D/ip.bin" || fail "--in-place changed the proof"
fi
"$B" verify --c1 "$D/c1.json" --param-cache "$P" --proof "$D/proof.bin" --write-inputs "$D/inputs.txt" |
  grep -q "partition 0: valid" || fail "proof rejected"
if [ -n "$NODE" ]; then
  "$NODE" "$MJS" "$vk" "$D/proof.bin" "$D/inputs.txt" --expect accept || fail "noble rejected the proof"
fi

rejects "another sector's C1" "partition 0: INVALID" \
  "$B" verify --c1 "$D/other.json" --param-cache "$P" --proof "$D/proof.bin"
edit "$D/c1.json" "$D/seed.json" "d['seed'][5] ^= 1"
rejects "another seed" "partition 0: INVALID" \
  "$B" verify --c1 "$D/seed.json" --param-cache "$P" --proof "$D/proof.bin"
edit "$D/c1.json" "$D/commr.json" "d['comm_r'][0] ^= 1"
rejects "another comm_r" "partition 0: INVALID" \
  "$B" verify --c1 "$D/commr.json" --param-cache "$P" --proof "$D/proof.bin"
python3 -c "import sys; b = bytearray(open(sys.argv[1], 'rb').read()); b[150] ^= 1; open(sys.argv[1], 'wb').write(b)" "$D/proof.bin"
if "$B" verify --c1 "$D/c1.json" --param-cache "$P" --proof "$D/proof.bin" >/dev/null 2>&1; then
  fail "tampered proof accepted"
fi
echo "c2 2KiB: ok"
