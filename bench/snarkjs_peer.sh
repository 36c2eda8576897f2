#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# The snarkjs peer of bench/prove (issue #5): the same SHA-256 circuit of ~2^K constraints proved
# by snarkjs (Groth16, BLS12-381) from cuzk's exported .r1cs/.wtns. snarkjs needs its own
# powers-of-tau and zkey; both are made here in a scratch directory (slow: minutes at K = 16),
# never in the repository or in CI. Run cuzk's side in the same session for the ratio:
#   build/bench/prove --log2 K --threads T --runs 3
# usage: bench/snarkjs_peer.sh [K] [BUILD_DIR]
set -eu
K=${1:-16}
BUILD=${2:-build}
SNARKJS="node $(pwd)/node_modules/snarkjs/cli.js"
DIR=$(mktemp -d /tmp/cuzk-snarkjs-XXXXXX)
trap 'rm -rf "$DIR"' EXIT
"$BUILD/bench/prove" --log2 "$K" --export "$DIR"
cd "$DIR"
t() { s=$(date +%s.%N); "$@" >/dev/null; e=$(date +%s.%N); echo "$e - $s" | bc; }
echo "ptau new:        $(t $SNARKJS powersoftau new bls12381 "$K" pot0.ptau) s"
echo "ptau phase2:     $(t $SNARKJS powersoftau prepare phase2 pot0.ptau pot.ptau) s"
echo "groth16 setup:   $(t $SNARKJS groth16 setup circuit.r1cs pot.ptau c.zkey) s"
for i in 1 2 3; do
  echo "groth16 prove $i: $(t $SNARKJS groth16 prove c.zkey witness.wtns proof.json public.json) s"
done
$SNARKJS zkey export verificationkey c.zkey vk.json >/dev/null
$SNARKJS groth16 verify vk.json public.json proof.json
