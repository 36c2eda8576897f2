// SPDX-License-Identifier: MIT OR Apache-2.0
// Groth16 verification of a cuzk proof with @noble/curves (an independent implementation):
//
//   node tests/interop/verify.mjs VK_FILE PROOF_FILE INPUTS_FILE [--expect accept|reject]
//
// VK_FILE is a bellperson `.vk` (docs/spec/groth16.md §2.2: alpha_g1, beta_g1, beta_g2, gamma_g2,
// delta_g1, delta_g2 uncompressed, a u32 big-endian count, then the ic points), PROOF_FILE 192
// bytes (compressed A, B, C), INPUTS_FILE the public inputs without ONE, one per line as the hex of
// 32 little-endian bytes. The check is the textbook one, computed with noble's own pairing:
//   e(A, B) == e(alpha, beta) · e(ic_0 + Σ x_i·ic_i, gamma) · e(C, delta).
// Prints `accept` or `reject`. Without --expect the exit code is 0 for accept and 1 for reject;
// with it, 0 when the verdict is the expected one and 1 otherwise. Bad files exit 2.

import { readFileSync } from 'node:fs';

const { bls12_381: bls } = await import('@noble/curves/bls12-381.js');
const G1 = bls.G1.Point;
const G2 = bls.G2.Point;
const Fp12 = bls.fields.Fp12;
const R = bls.fields.Fr.ORDER;

function fail(msg) {
  console.error(`verify.mjs: ${msg}`);
  process.exit(2);
}

const args = process.argv.slice(2);
let expect = null;
const ei = args.indexOf('--expect');
if (ei >= 0) {
  expect = args[ei + 1];
  if (expect !== 'accept' && expect !== 'reject') fail('--expect takes accept or reject');
  args.splice(ei, 2);
}
if (args.length !== 3) fail('usage: verify.mjs VK_FILE PROOF_FILE INPUTS_FILE [--expect accept|reject]');
const [vkPath, proofPath, inputsPath] = args;

// ---- the verifying key ----
const vkBytes = readFileSync(vkPath);
let off = 0;
function take(n) {
  if (off + n > vkBytes.length) fail(`${vkPath}: truncated at byte ${off}`);
  const b = vkBytes.subarray(off, off + n);
  off += n;
  return b;
}
const alpha = G1.fromBytes(take(96));
take(96); // beta_g1 (the prover's; not needed here)
const beta = G2.fromBytes(take(192));
const gamma = G2.fromBytes(take(192));
take(96); // delta_g1
const delta = G2.fromBytes(take(192));
const nIc = take(4).readUInt32BE(0);
const ic = [];
for (let i = 0; i < nIc; i++) ic.push(G1.fromBytes(take(96)));
if (off !== vkBytes.length) fail(`${vkPath}: ${vkBytes.length - off} trailing bytes`);
for (const P of [alpha, ...ic]) P.assertValidity();
for (const Q of [beta, gamma, delta]) Q.assertValidity();

// ---- the proof and the inputs ----
const proof = readFileSync(proofPath);
if (proof.length !== 192) fail(`${proofPath}: ${proof.length} bytes, expected 192`);
let A, B, C;
try {
  A = G1.fromBytes(proof.subarray(0, 48));
  B = G2.fromBytes(proof.subarray(48, 144));
  C = G1.fromBytes(proof.subarray(144, 192));
} catch (e) {
  // An undecodable proof is a rejection, not a usage error.
  report(false, `proof does not decode: ${e.message}`);
}
const inputs = readFileSync(inputsPath, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l);
const xs = inputs.map((h) => {
  if (!/^[0-9a-fA-F]{64}$/.test(h)) fail(`${inputsPath}: bad line ${h}`);
  const x = BigInt('0x' + Buffer.from(h, 'hex').reverse().toString('hex'));
  if (x >= R) fail(`${inputsPath}: input ${h} is not below r`);
  return x;
});
if (xs.length + 1 !== nIc) fail(`${xs.length} inputs for a key with ${nIc} ic points`);

function report(ok, why) {
  console.log(ok ? 'accept' : 'reject' + (why ? ` (${why})` : ''));
  if (expect === null) process.exit(ok ? 0 : 1);
  const want = expect === 'accept';
  if (ok !== want) console.log(`expected ${expect}`);
  process.exit(ok === want ? 0 : 1);
}

// ---- the pairing check ----
let acc = ic[0];
xs.forEach((x, i) => {
  if (x !== 0n) acc = acc.add(ic[i + 1].multiply(x));
});
// noble's pairing refuses the identity; e(O, Q) = 1.
const e = (P, Q) => (P.equals(G1.ZERO) || Q.equals(G2.ZERO) ? Fp12.ONE : bls.pairing(P, Q));
const lhs = e(A, B);
const rhs = Fp12.mul(Fp12.mul(e(alpha, beta), e(acc, gamma)), e(C, delta));
report(Fp12.eql(lhs, rhs));
