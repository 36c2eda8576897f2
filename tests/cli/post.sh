#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# PoSt end to end through cuzk-bench. For 2 KiB WinningPoSt and WindowPoSt: gen-vanilla -> setup
# --if-missing (into PARAM_DIR, shared with the other tests) -> prove (pre-compiled constraints,
# and --synthesis prove) -> verify, the proof also accepted by the independent @noble/curves
# verifier; --deterministic SEED gives the same bytes across thread counts, synthesis modes and
# the parameters decoded or read in place, another seed other bytes; refused: a flipped proof
# byte, the proof against another request (other randomness). Refused before proving (prove exits 1, names the
# fault, writes nothing) and by verify-vanilla: a flipped comm_c byte, a flipped path index, a
# 31-byte randomness, a Winning registered proof in a Window request, swapped Window sectors; the
# request reader's field errors; the daemon client loading a request. Then both kinds at 8 MiB
# (sealed sectors; setup ~10 s the first time; in place and decoded, the same bytes from one
# seed) and a 32 GiB WinningPoSt on a synthetic replica
# (setup ~15 s on 2 cores the first time, prove ~5 s). ~45 s once the parameters exist. usage: post.sh CUZK_BENCH PARAM_DIR [NODE VERIFY_MJS]
set -eu
B=$1
P=$2
NODE=${3:-}
MJS=${4:-}
S=$(cd "$(dirname "$0")/../.." && pwd)
D=$(mktemp -d /tmp/cuzk-post-XXXXXX)
trap 'rm -rf "$D"' EXIT
. "$(dirname "$0")/lib.sh"
refused() { # refused WHAT NEEDLE REQUEST: prove exits 1 naming it and writes nothing
  rm -f "$D/x.bin"
  rc=0
  "$B" prove --request "$3" --param-cache "$P" -o "$D/x.bin" >"$D/out" 2>&1 || rc=$?
  [ $rc -eq 1 ] || { cat "$D/out" >&2; fail "$1: prove exit code $rc, expected 1"; }
  grep -q -- "$2" "$D/out" || { cat "$D/out" >&2; fail "$1: no '$2' in the message"; }
  [ ! -e "$D/x.bin" ] || fail "$1: a proof was written"
}
setup() { # setup KIND SIZE HASH: parameters present or generated, with Filecoin's file name
  "$B" setup --kind "$1" --sector-size "$2" --param-cache "$P" --if-missing
  vk=$P/v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-$3.vk
  [ -s "$vk" ] || fail "$1 $2: no $vk"
}
proves() { # proves REQUEST [PROVE ARGS]: prove, verify, noble (with the vk of the last setup)
  r=$1
  shift
  "$B" prove --request "$r" --param-cache "$P" -o "$D/proof.bin" "$@"
  [ "$(wc -c <"$D/proof.bin")" -eq 192 ] || fail "$r: proof size"
  "$B" verify --request "$r" --param-cache "$P" --proof "$D/proof.bin" --write-inputs "$D/in.txt" |
    grep -q "partition 0: valid" || fail "$r: proof rejected"
  [ -z "$NODE" ] || "$NODE" "$MJS" "$vk" "$D/proof.bin" "$D/in.txt" --expect accept ||
    fail "$r: noble rejected the proof"
}
calibrated() { # calibrated REQUEST: an MSM calibration beside the parameters (docs/msm.md
  # "Calibration") is used when measured on this CPU, kernel and thread count, here one that
  # turns every plan to XYZZ at window 9: the same bytes as d1.bin; a damaged one is a warning
  # naming the key, and the proof is the same
  C=$D/calibrated
  mkdir -p "$C"
  for f in "$P"/*.vk "$P"/*.params; do ln -sf "$f" "$C/"; done
  cpu=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -1 |
    tr -s ' \t' ' ' | sed 's/ *$//')
  [ -n "$cpu" ] || cpu=unknown
  kernel=scalar word=scalar
  if "$B" --version | grep -q "kernels.*ifma"; then kernel=ifma word=IFMA; fi
  { echo "version 1"; echo "cpu $cpu"; echo "kernel $kernel"; echo "threads $(nproc)"
    for s in 10 12 14 16 18 20 22; do echo "g1.$s xyzz 9"; done
    for s in 10 12 14 16 18 20; do echo "g2.$s xyzz 9"; done; } >"$C/cuzk-msm-calibration.txt"
  "$B" prove --request "$1" --param-cache "$C" --deterministic 7 -o "$D/c1.bin" 2>"$D/err" >/dev/null
  grep -q "MSM windows measured on \"$cpu\" ($word kernels, $(nproc) threads)" "$D/err" ||
    { cat "$D/err" >&2; fail "calibration not used"; }
  cmp -s "$D/d1.bin" "$D/c1.bin" || fail "calibrated plans gave other bytes"
  sed -i 's/^g2.16 .*/g2.16 xyzz 21/' "$C/cuzk-msm-calibration.txt"
  "$B" prove --request "$1" --param-cache "$C" --deterministic 7 -o "$D/c2.bin" 2>"$D/err" >/dev/null
  grep -q "warning: .*cuzk-msm-calibration.txt:[0-9]*: g2.16: \"xyzz 21\" is not" "$D/err" ||
    { cat "$D/err" >&2; fail "damaged calibration: no warning naming the key"; }
  cmp -s "$D/d1.bin" "$D/c2.bin" || fail "damaged calibration: other bytes"
}
R2=0707070707070707070707070707070707070707070707070707070707070707

"$B" --help | grep -q "gen-vanilla winning-post|window-post" || fail "cuzk-bench --help"
"$B" prove --help | grep -q -- "--request FILE" || fail "prove --help"
rejects "--synthesis with another word" "--synthesis: pce or prove, not fast" \
  "$B" prove --request x.json --param-cache "$P" --synthesis fast -o "$D/x.bin"
rejects "--deterministic without a number" "--deterministic: not an unsigned integer: x" \
  "$B" prove --request x.json --param-cache "$P" --deterministic x -o "$D/x.bin"
for kind in winning-post window-post; do
  "$B" gen-vanilla $kind --sector-size 2KiB --data random:5 --first-sector 7 -o "$D/$kind.json" \
    >/dev/null
  "$B" gen-vanilla $kind --sector-size 2KiB --data random:5 --first-sector 7 --randomness $R2 \
    -o "$D/$kind-other.json" >/dev/null
done
"$B" gen-vanilla window-post --sector-size 2KiB --registered-proof 5 -o "$D/v1.json" >/dev/null
# no parameter set in the directory: the missing file named, and the setup command that makes one
mkdir "$D/none"
rejects "prove without parameters" \
  "\.vk: no such file.*setup --kind window-post --sector-size 2KiB --param-cache $D/none" \
  "$B" prove --request "$D/window-post.json" --param-cache "$D/none" -o "$D/x.bin"
: >"$D/x.bin"
rejects "verify without parameters" "\.vk: no such file.*--kind winning-post --sector-size 2KiB" \
  "$B" verify --request "$D/winning-post.json" --param-cache "$D/none" --proof "$D/x.bin"

# Every mutated request ($D/NAME.json) and raw element ($D/NAME.el.bin: its vanilla_proofs[0]) in
# one Python run (a start costs up to 0.5 s). Bincode offsets (docs/post.md "Vanilla proof
# bytes"): comm_c is the 64th byte from the end; the first inclusion proof starts at 56 (u32 tag,
# root, leaf, path count, hashes count, 7 hashes), so its first path index is at byte 364.
python3 - "$D" <<'PY'
import base64, json, sys
D = sys.argv[1]
def load(name):
    d = json.load(open(f"{D}/{name}.json"))
    return d, [bytearray(base64.b64decode(x)) for x in d["vanilla_proofs"]]
def save(name, d, v=None):
    if v is not None:
        d = dict(d, vanilla_proofs=[base64.b64encode(bytes(x)).decode() for x in v])
        open(f"{D}/{name}.el.bin", "wb").write(v[0])
    json.dump(d, open(f"{D}/{name}.json", "w"))
def flip(v, at):
    m = [bytearray(x) for x in v]
    m[0][at] ^= 1
    return m
for kind in ("winning-post", "window-post"):
    d, v = load(kind)
    open(f"{D}/{kind}.el.bin", "wb").write(v[0])
    save(f"{kind}-commc", d, flip(v, -64))
    save(f"{kind}-index", d, flip(v, 364))
    save(f"{kind}-rand31", dict(d, randomness=base64.b64encode(b"\5" * 31).decode()))
d, v = load("window-post")
save("window-winning-id", dict(d, registered_proof=0))
save("window-swap", d, [v[1], v[0]])
for key, val in (("vanilla_proofs", [d["vanilla_proofs"][0], "AQ=@"]), ("randomness", "BQ"),
                 ("proof_kind", "POREP_SEAL_COMMIT"), ("sector_size", 8388608),
                 ("sector_number", 3)):
    save(f"window-{key}", dict(d, **{key: val}))
save("window-no-miner", {k: x for k, x in d.items() if k != "miner_id"})
d, v = load("v1")
open(f"{D}/v1.el1.bin", "wb").write(v[1])
save("v1-swap", d, [v[1], v[0]])
PY

for kind in winning-post window-post; do
  case $kind in # the names of Filecoin's parameters.json
  winning-post) id=0 hash=8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e ;;
  *) id=10 hash=8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0 ;;
  esac
  setup $kind 2KiB $hash
  proves "$D/$kind.json"                     # pre-compiled constraints (the default)
  proves "$D/$kind.json" --synthesis prove   # PROVE mode: the same checks
  # --deterministic: the same bytes on every run, thread count and synthesis mode, with a warning
  "$B" prove --request "$D/$kind.json" --param-cache "$P" --deterministic 7 --threads 1 \
    -o "$D/d1.bin" >/dev/null 2>"$D/warn"
  grep -q "NOT FOR PRODUCTION" "$D/warn" || fail "$kind: --deterministic without its warning"
  "$B" prove --request "$D/$kind.json" --param-cache "$P" --deterministic 7 --threads 2 \
    --synthesis prove -o "$D/d2.bin" >/dev/null 2>&1
  cmp -s "$D/d1.bin" "$D/d2.bin" || fail "$kind: --deterministic 7 gave different bytes"
  "$B" prove --request "$D/$kind.json" --param-cache "$P" --deterministic 8 -o "$D/d3.bin" \
    >/dev/null 2>&1
  if cmp -s "$D/d1.bin" "$D/d3.bin"; then fail "$kind: seeds 7 and 8 gave the same bytes"; fi
  [ $kind = winning-post ] && calibrated "$D/$kind.json"
  # --pce-file: the matrices recorded and written, then mapped from the file; the same bytes.
  # WindowPoSt finds WinningPoSt's file: another parameter set's tag, so recorded again. The
  # second run reads the MSM bases in place (docs/groth16.md "Parameters read in place"): the
  # same bytes as the decoded parameters give.
  for step in recorded "read from"; do
    in_place=
    [ "$step" = recorded ] || in_place=--in-place
    "$B" prove --request "$D/$kind.json" --param-cache "$P" --deterministic 7 $in_place \
      --pce-file "$D/m.pce" -o "$D/d4.bin" >"$D/out" 2>&1
    grep -q "matrices $step" "$D/out" || { cat "$D/out" >&2; fail "$kind: --pce-file: no '$step'"; }
    [ "$step" != recorded ] || grep -q "written to $D/m.pce and mapped from it" "$D/out" ||
      fail "$kind: --pce-file: the recording kept instead of the file mapped"
    cmp -s "$D/d1.bin" "$D/d4.bin" || fail "$kind: --pce-file $in_place changed the proof"
  done
  rejects "$kind: another request's randomness" "partition 0: INVALID" \
    "$B" verify --request "$D/$kind-other.json" --param-cache "$P" --proof "$D/proof.bin"
  b=$(od -An -tu1 -j150 -N1 "$D/proof.bin" | tr -d ' ')
  # shellcheck disable=SC2059 # the octal escape is the byte
  printf "\\$(printf %o $((b ^ 1)))" | dd of="$D/proof.bin" bs=1 seek=150 conv=notrunc 2>/dev/null
  if "$B" verify --request "$D/$kind.json" --param-cache "$P" --proof "$D/proof.bin" >/dev/null 2>&1
  then fail "$kind: flipped proof byte accepted"; fi

  # refused before proving, and by verify-vanilla on the element
  VV="$B verify-vanilla --kind $kind --registered-proof $id --miner-id 1000"
  $VV --vanilla "$D/$kind.el.bin" | grep -q "^valid" || fail "$kind: verify-vanilla, good proof"
  rejects "$kind: verify-vanilla, other randomness" "path indices open leaf" \
    $VV --vanilla "$D/$kind.el.bin" --randomness $R2
  refused "$kind: comm_c" "vanilla_proofs\[0\] (sector 7): sector 7: comm_r is not Poseidon2" \
    "$D/$kind-commc.json"
  rejects "$kind: verify-vanilla comm_c" "comm_r is not Poseidon2" $VV --vanilla "$D/$kind-commc.el.bin"
  refused "$kind: path index" "vanilla_proofs\[0\] (sector 7): sector 7, challenge 0" "$D/$kind-index.json"
  rejects "$kind: verify-vanilla path index" "challenge 0 (leaf [0-9]*): path indices open leaf" \
    $VV --vanilla "$D/$kind-index.el.bin"
  refused "$kind: 31-byte randomness" "randomness: 31 bytes, expected 32" "$D/$kind-rand31.json"
  rejects "$kind: verify-vanilla 31-byte randomness" "randomness: expected 64 hex digits" \
    $VV --vanilla "$D/$kind.el.bin" --randomness 05050505050505050505050505050505050505050505050505050505050505
done

# WindowPoSt only: a Winning registered proof; swapped sectors (V1_1: refused by order; V1: the
# position also changes the challenges, so verify-vanilla refuses the element at another index)
refused "Winning id in a Window request" "registered_proof: 0 (StackedDrgWinning2KiBV1) is a WinningPoSt proof, but proof_kind is WINDOW_POST_PARTITION" \
  "$D/window-winning-id.json"
rejects "verify-vanilla Winning id for a Window proof" "inclusion_proofs: count 10, expected 66" \
  "$B" verify-vanilla --kind winning-post --registered-proof 0 --vanilla "$D/window-post.el.bin"
rejects "verify-vanilla Winning id with --kind window-post" "0 is not a registered window-post proof" \
  "$B" verify-vanilla --kind window-post --registered-proof 0 --vanilla "$D/window-post.el.bin"
refused "swapped sectors" "vanilla_proofs\[1\]: sector 7 after sector 8: sectors must be distinct and in ascending order" \
  "$D/window-swap.json"
"$B" verify-vanilla --kind window-post --registered-proof 5 --vanilla "$D/v1.el1.bin" --sector-index 1 |
  grep -q "^valid" || fail "V1 element at its position"
rejects "verify-vanilla V1 element at another position" "sector 2, challenge 0 (leaf [0-9]*): path indices open leaf" \
  "$B" verify-vanilla --kind window-post --registered-proof 5 --vanilla "$D/v1.el1.bin" --sector-index 0
refused "swapped V1 sectors" "vanilla_proofs\[0\] (sector 2): sector 2, challenge 0 (leaf [0-9]*): path indices open leaf" \
  "$D/v1-swap.json"

# the request reader names the field
refused "bad base64" "vanilla_proofs\[1\]: not base64" "$D/window-vanilla_proofs.json"
refused "bad base64 randomness" "randomness: not base64" "$D/window-randomness.json"
refused "PoRep kind" "proof_kind: unknown value 'POREP_SEAL_COMMIT'" "$D/window-proof_kind.json"
refused "missing field" "miner_id: missing" "$D/window-no-miner.json"
refused "another sector size" "sector_size: 8388608, but StackedDrgWindow2KiBV1_1 proves 2KiB sectors" \
  "$D/window-sector_size.json"
refused "a PoRep field" "sector_number: set, but it is not a WindowPoSt field" "$D/window-sector_number.json"

# proto3 JSON readers accept the file as is (when this python3 has protobuf and grpc_tools)
Q=$D/window-post.json
if python3 -c "import google.protobuf, grpc_tools" 2>/dev/null; then
  python3 - "$D" "$Q" "$S/proto" <<'PY' || fail "json_format.ParseDict"
import json, sys
from grpc_tools import protoc
assert protoc.main(["protoc", "-I", sys.argv[3], "--python_out=" + sys.argv[1],
                    "cuzk/v1/proving.proto"]) == 0
sys.path.insert(0, sys.argv[1])
from cuzk.v1 import proving_pb2 as pb
from google.protobuf import json_format
m = json_format.ParseDict(json.load(open(sys.argv[2])), pb.SubmitProofRequest())
assert m.proof_kind == pb.WINDOW_POST_PARTITION and m.registered_proof == 10 and m.sector_size == 2048
assert len(m.randomness) == 32 and [len(v) for v in m.vanilla_proofs] == [5680, 5680]
open(sys.argv[2] + ".camel", "w").write(json_format.MessageToJson(m, including_default_value_fields=True))
PY
  "$B" synth-only --request "$Q.camel" | grep -q "constraints=21866" || fail "MessageToJson output"
else
  echo "note: python3 without protobuf/grpc_tools: ParseDict check skipped"
fi
"$B" synth-only --request "$Q" --perf-json "$D/perf.json" | grep -q "circuits=1  constraints=21866" ||
  fail "synth-only --request"

# the daemon's client loads the request (the call itself fails: no daemon listens there)
rejects "single --request" "WINDOW_POST_PARTITION, registered_proof 10, partition 0, 2 vanilla proofs" \
  "$B" single --request "$Q" -a "unix://$D/none.sock" --timeout-ms 2000
rejects "single --request -t porep" "a PoSt request, but -t porep" \
  "$B" single --request "$Q" -t porep -a "unix://$D/none.sock"

# 8 MiB, both kinds: sealed sectors (two for Window), their own parameters, proofs that verify;
# the MSM bases read in place give the same bytes as the decoded ones
in_place_same() { # in_place_same REQUEST: proof.bin (seed 9, decoded) proven again in place
  "$B" prove --request "$1" --param-cache "$P" --deterministic 9 --in-place -o "$D/ip.bin" \
    >/dev/null 2>&1
  cmp -s "$D/proof.bin" "$D/ip.bin" || fail "$1: --in-place changed the proof"
}
"$B" gen-vanilla winning-post --sector-size 8MiB --data random:8 -o "$D/win8.json" >/dev/null
setup winning-post 8MiB 8-0-0-50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331
proves "$D/win8.json" --deterministic 9
in_place_same "$D/win8.json"
"$B" gen-vanilla window-post --sector-size 8MiB --data random:8 -o "$D/wpost8.json" >/dev/null
setup window-post 8MiB 8-0-0-5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9
proves "$D/wpost8.json" --deterministic 9
in_place_same "$D/wpost8.json"

# 32 GiB WinningPoSt on a synthetic replica (the production circuit: 370,590 constraints)
"$B" gen-vanilla winning-post --sector-size 32GiB -o "$D/w32.json" | grep -q "1 synthetic sector" ||
  fail "32GiB gen-vanilla"
setup winning-post 32GiB 8-8-0-559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e
proves "$D/w32.json"
echo "cli post: ok"
