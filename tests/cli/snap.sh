#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# SnapDeals (the replica update) end to end through cuzk-bench. 2 KiB: gen-vanilla snap (a CC
# sector sealed, new data encoded) -> verify-vanilla -> setup --if-missing (Filecoin's file name,
# into PARAM_DIR) -> prove (its parameters read in place: docs/groth16.md "Parameters read in
# place"; decoded, the same bytes from the same seed) -> verify, the proof also accepted by the
# independent @noble/curves verifier; refused after proving: a flipped proof byte, the proof against another update.
# Refused before proving (prove exits 1, names the fault, writes nothing), and by
# verify-vanilla: each commitment of the request changed, a path element of each tree, an apex
# leaf, a truncated and an over-long partition proof, another registered proof, a wrong sector
# size, a 31-byte commitment, a PoSt field set. 8 MiB: four partitions, swapped partitions refused
# naming the partition, synth-only over all four. ~1 min once the 2 KiB parameters exist.
# usage: snap.sh CUZK_BENCH PARAM_DIR [NODE VERIFY_MJS]
set -eu
B=$1
P=$2
NODE=${3:-}
MJS=${4:-}
D=$(mktemp -d /tmp/cuzk-snap-XXXXXX)
trap 'rm -rf "$D"' EXIT
. "$(dirname "$0")/lib.sh"
refused() { # refused WHAT NEEDLE REQUEST: prove and verify-vanilla exit 1 naming it
  rm -f "$D/x.bin"
  rc=0
  "$B" prove --request "$3" --param-cache "$P" -o "$D/x.bin" >"$D/out" 2>&1 || rc=$?
  [ $rc -eq 1 ] || { cat "$D/out" >&2; fail "$1: prove exit code $rc, expected 1"; }
  grep -q -- "$2" "$D/out" || { cat "$D/out" >&2; fail "$1: no '$2' in the message"; }
  [ ! -e "$D/x.bin" ] || fail "$1: a proof was written"
  rejects "$1 (verify-vanilla)" "$2" "$B" verify-vanilla --kind snap --request "$3"
}

"$B" gen-vanilla --help | grep -q "gen-vanilla snap" || fail "gen-vanilla --help"
"$B" gen-vanilla snap --sector-size 2KiB --data random:5 --sector-num 9 -o "$D/r.json" >"$D/gen"
grep -q "StackedDrg2KiBV1 (2KiB), sector 9, 1 partition" "$D/gen" || fail "gen-vanilla output"
"$B" gen-vanilla snap --sector-size 2KiB --data random:6 -o "$D/other.json" >/dev/null
"$B" verify-vanilla --kind snap --request "$D/r.json" | grep -q "valid (StackedDrg2KiBV1: 1 part" ||
  fail "verify-vanilla"
"$B" shape --kind snap --sector-size 2KiB --no-nnz | grep -q "circuit constraints *1705039" ||
  fail "shape 2KiB"

"$B" setup --kind snap --sector-size 2KiB --param-cache "$P" --if-missing
vk=$P/v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194.vk
[ -s "$vk" ] || fail "no $vk"
"$B" prove --request "$D/r.json" --param-cache "$P" --in-place --deterministic 5 -o "$D/proof.bin" \
  >"$D/prove.out"
[ "$(wc -c <"$D/proof.bin")" -eq 192 ] || fail "proof size"
grep -q "^partition 0: peak RSS [0-9.]* GiB, read from storage" "$D/prove.out" || fail "no resources line"
rc=0
"$B" prove --request "$D/r.json" --param-cache "$P" --partition 1 -o "$D/x.bin" >"$D/out" 2>&1 || rc=$?
[ $rc -eq 2 ] && grep -q "partition 1: the request has 1 partition" "$D/out" || fail "--partition 1 of 1"
[ ! -e "$D/x.bin" ] || fail "--partition 1 of 1 wrote a proof"
[ -s "$P/$(basename "$vk" .vk).params.checked" ] || fail "in place: no .params.checked written"
# decoded: the same bytes as in place from the same seed
"$B" prove --request "$D/r.json" --param-cache "$P" --deterministic 5 -o "$D/d.bin" >/dev/null 2>&1
cmp -s "$D/proof.bin" "$D/d.bin" || fail "decoded and in place: other bytes"
"$B" verify --request "$D/r.json" --param-cache "$P" --proof "$D/proof.bin" \
  --write-inputs "$D/in.txt" | grep -q "partition 0: valid" || fail "proof rejected"
# the first public input: k = 0 with h_select 1 (2 KiB), then comm_r_old, comm_d_new, comm_r_new
[ "$(head -1 "$D/in.txt")" = 0100000000000000000000000000000000000000000000000000000000000000 ] ||
  fail "first public input"
[ "$(wc -l <"$D/in.txt")" -eq 4 ] || fail "four public inputs"
if [ -n "$NODE" ]; then
  "$NODE" "$MJS" "$vk" "$D/proof.bin" "$D/in.txt" --expect accept || fail "noble rejected the proof"
fi
rejects "the proof against another update" "partition 0: INVALID" \
  "$B" verify --request "$D/other.json" --param-cache "$P" --proof "$D/proof.bin"
cp "$D/proof.bin" "$D/flip.bin"
printf '\001' | dd of="$D/flip.bin" bs=1 seek=100 conv=notrunc 2>/dev/null
rejects "a flipped proof byte" "" \
  "$B" verify --request "$D/r.json" --param-cache "$P" --proof "$D/flip.bin"

# Mutations (docs/spec/snap-circuit.md §5.1 offsets: comm_c 0, apex count 32, apex leaves 40..,
# challenge count 296, then proof_r_old of challenge 0: tag 304, root 308, leaf 340, ...).
python3 - "$D" <<'PY'
import base64, json, sys
D = sys.argv[1]
d = json.load(open(f"{D}/r.json"))
v = bytearray(base64.b64decode(d["vanilla_proofs"][0]))
def save(name, **kw):
    json.dump(dict(d, **kw), open(f"{D}/{name}.json", "w"))
def flip(field):
    b = bytearray(base64.b64decode(d[field]))
    b[3] ^= 8
    return base64.b64encode(bytes(b)).decode()
def vflip(at):
    m = bytearray(v)
    m[at] ^= 1
    return [base64.b64encode(bytes(m)).decode()]
for f in ("comm_r_old", "comm_r_new", "comm_d_new"):
    save(f"m-{f}", **{f: flip(f)})
save("m-apex", vanilla_proofs=vflip(40 + 5 * 32))
save("m-r-old-sibling", vanilla_proofs=vflip(304 + 4 + 64 + 8 + 8 + 32))
save("m-trunc", vanilla_proofs=[base64.b64encode(bytes(v[:-1])).decode()])
save("m-trailing", vanilla_proofs=[base64.b64encode(bytes(v) + b"\0").decode()])
save("m-proof", registered_proof=1, sector_size=0)  # PSProve sends no size
save("m-size", sector_size=8388608)
save("m-comm31", comm_r_new=base64.b64encode(base64.b64decode(d["comm_r_new"])[:31]).decode())
save("m-randomness", randomness=base64.b64encode(b"\5" * 32).decode())
PY
refused "comm_r_old" "comm_r_old is not Poseidon2(comm_c" "$D/m-comm_r_old.json"
refused "comm_r_new" "comm_r_new is not Poseidon2(comm_c" "$D/m-comm_r_new.json"
refused "comm_d_new" "TreeD new: root differs from comm_d_new" "$D/m-comm_d_new.json"
refused "an apex leaf" "apex" "$D/m-apex.json"
refused "a TreeR old sibling" "TreeR old: leaf and path do not hash" "$D/m-r-old-sibling.json"
refused "truncated" "vanilla_proofs\[0\]: .*truncated" "$D/m-trunc.json"
refused "trailing bytes" "trailing bytes: 1" "$D/m-trailing.json"
refused "another registered proof" "1 elements, but StackedDrg8MiBV1 has 4 partitions" \
  "$D/m-proof.json"
refused "another sector size" "sector_size: 8388608, but StackedDrg2KiBV1 proves 2KiB" \
  "$D/m-size.json"
refused "a 31-byte commitment" "comm_r_new: 31 bytes, expected 32" "$D/m-comm31.json"
refused "a PoSt field" "randomness: set, but it is not a SnapDeals field" "$D/m-randomness.json"

# 8 MiB: four partitions; swapped partitions are refused naming the first misplaced one
"$B" gen-vanilla snap --sector-size 8MiB --data random:8 -o "$D/r8.json" >/dev/null
"$B" verify-vanilla --kind snap --request "$D/r8.json" | grep -q "4 partitions" || fail "8MiB"
python3 - "$D" <<'PY'
import json, sys
D = sys.argv[1]
d = json.load(open(f"{D}/r8.json"))
v = d["vanilla_proofs"]
json.dump(dict(d, vanilla_proofs=[v[1], v[0], v[2], v[3]]), open(f"{D}/r8-swap.json", "w"))
PY
refused "swapped partitions" "vanilla_proofs\[0\]: partition 0, challenge 0" "$D/r8-swap.json"
"$B" synth-only --request "$D/r8.json" | grep -q "circuits=4  constraints=10007503" ||
  fail "synth-only 8MiB"
echo "snap.sh: ok"
