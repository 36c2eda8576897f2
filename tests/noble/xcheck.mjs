// SPDX-License-Identifier: MIT OR Apache-2.0
// Cross-check of cuzk against @noble/curves (BLS12-381), an independent implementation.
//
//   node tests/noble/xcheck.mjs PATH_TO_xcheck_dump [SEED] [N]
//
// Runs the C dumper (tests/noble/xcheck_dump.c), which prints cuzk's results as JSON lines, and
// recomputes every value with noble:
//   * k·G1 and k·G2, compressed and uncompressed ZCash bytes, must equal noble's byte for byte;
//     noble must decode its own bytes and cuzk's bytes back to the same point;
//   * e(a·G1, b·G2) must equal noble's pairing, flattened in cuzk's tower order, and also
//     noble's e(G1, G2)^(a·b mod r) (bilinearity across the two implementations).
// One line per failed check, then exactly one line `xcheck: N passed, M failed`. Exits non-zero
// on any failure, on a dumper error, or when fewer checks ran than the arguments call for.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const NOBLE_VERSION = '2.4.0'; // pinned in package.json; results are only reproducible with it
const MIN_RANDOM_SCALARS = 100;
const MIN_PAIRINGS = 4; // e(G1, G2) and a few random (a, b)
const CHECKS_PER_SCALAR = 12; // 4 encodings x (bytes, noble round trip, noble decodes cuzk)
const CHECKS_PER_PAIRING = 2; // direct pairing, bilinearity

let passed = 0;
let failed = 0;

function check(ok, name, detail) {
  if (ok) {
    passed++;
  } else {
    failed++;
    console.log(`FAIL ${name}${detail ? ': ' + detail : ''}`);
  }
  return ok;
}

// The single exit path, so the summary line is always last and always printed exactly once.
function finish(extraFailure) {
  if (extraFailure) check(false, extraFailure.name, extraFailure.detail);
  console.log(`xcheck: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

const hex = (u8) => Buffer.from(u8).toString('hex');

// Where two hex strings first differ, so a failure line says which byte (and so which
// coordinate or flag) is wrong without printing hundreds of digits twice.
function diff(ours, theirs) {
  if (ours.length !== theirs.length) return `length ${ours.length / 2} != ${theirs.length / 2} bytes`;
  let i = 0;
  while (i < ours.length && ours[i] === theirs[i]) i++;
  const b = i >> 1;
  return `first difference at byte ${b}: cuzk ${ours.slice(2 * b, 2 * b + 16)}.. noble ${theirs.slice(2 * b, 2 * b + 16)}..`;
}

// ---- arguments ----------------------------------------------------------------------------
const [dumper, seedArg = '20261130', nArg = '128'] = process.argv.slice(2);
if (!dumper) {
  console.log('usage: node tests/noble/xcheck.mjs PATH_TO_xcheck_dump [SEED] [N]');
  finish({ name: 'usage', detail: 'no dumper path given' });
}
if (!/^(0x[0-9a-fA-F]+|[0-9]+)$/.test(seedArg)) finish({ name: 'usage', detail: `bad SEED ${seedArg}` });
if (!/^[0-9]+$/.test(nArg)) finish({ name: 'usage', detail: `bad N ${nArg}` });
const N = Number(nArg);
if (N < MIN_RANDOM_SCALARS) {
  finish({ name: 'coverage', detail: `N = ${N}: at least ${MIN_RANDOM_SCALARS} random scalars must be covered` });
}

// ---- noble --------------------------------------------------------------------------------
// Missing noble is a failure, not a skip: a silently skipped cross-check looks like a passing one.
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const noblePkg = resolve(repoRoot, 'node_modules', '@noble', 'curves', 'package.json');
if (!existsSync(noblePkg)) {
  finish({
    name: 'setup',
    detail: `${noblePkg} is missing: run npm ci in ${repoRoot} to install @noble/curves ${NOBLE_VERSION}`,
  });
}
const installed = JSON.parse(readFileSync(noblePkg, 'utf8')).version;
check(installed === NOBLE_VERSION, 'setup.version',
  `node_modules has @noble/curves ${installed}, package-lock pins ${NOBLE_VERSION}: run npm ci`);
let bls;
try {
  ({ bls12_381: bls } = await import('@noble/curves/bls12-381.js'));
} catch (e) {
  finish({ name: 'setup', detail: `cannot load @noble/curves (${e.message}): run npm ci` });
}
const { G1, G2 } = bls;
const { Fr, Fp12 } = bls.fields;
const r = Fr.ORDER;

// noble's Fp12 as cuzk_fp12_to_bytes writes it: the 12 Fp coefficients, 48 bytes big-endian
// each, in tower order c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1. Spelled out here rather
// than taken from Fp12.toBytes so the comparison does not depend on noble's own layout choice.
function fp12Hex(x) {
  let out = '';
  for (const c6 of [x.c0, x.c1])
    for (const c2 of [c6.c0, c6.c1, c6.c2])
      for (const c of [c2.c0, c2.c1]) out += c.toString(16).padStart(96, '0');
  return out;
}

function scalar(line, key) {
  const s = line[key];
  if (typeof s !== 'string' || !/^[0-9a-f]{64}$/.test(s)) throw new Error(`bad scalar ${key}=${s}`);
  const v = BigInt('0x' + s);
  if (v >= r) throw new Error(`scalar ${key}=${s} is not reduced mod r`);
  return v;
}

// ---- run the dumper -----------------------------------------------------------------------
const run = spawnSync(dumper, [seedArg, nArg], { encoding: 'utf8', maxBuffer: 256 << 20 });
if (run.error) finish({ name: 'dumper', detail: `cannot run ${dumper}: ${run.error.message}` });
if (run.stderr) process.stdout.write(run.stderr);
check(run.status === 0, 'dumper.exit', `${dumper} exited with status ${run.status} signal ${run.signal}`);

// ---- checks -------------------------------------------------------------------------------
const groups = [
  { name: 'g1', P: G1.Point, c: 'g1c', u: 'g1u' },
  { name: 'g2', P: G2.Point, c: 'g2c', u: 'g2u' },
];

function checkScalarLine(line) {
  const k = scalar(line, 'k');
  const tag = `k=0x${line.k}`;
  for (const g of groups) {
    // multiply() takes 1 <= k < r only; k = 0 is the identity, encoded with the infinity flag.
    const P = k === 0n ? g.P.ZERO : g.P.BASE.multiply(k);
    for (const [key, compressed] of [[g.c, true], [g.u, false]]) {
      const theirs = hex(P.toBytes(compressed));
      const ours = line[key];
      check(ours === theirs, `${key}.bytes ${tag}`, typeof ours === 'string' ? diff(ours, theirs) : `missing ${key}`);
      // Decoding (flags, sign bit, sqrt, subgroup check) is exercised on both byte strings, so
      // a mismatch above also says whether noble accepts cuzk's encoding as the same point.
      for (const [who, bytes] of [['noble', theirs], ['cuzk', ours]]) {
        let ok = false;
        let why = '';
        try {
          ok = g.P.fromBytes(Buffer.from(bytes, 'hex')).equals(P);
          why = 'decodes to a different point';
        } catch (e) {
          why = `noble rejects it: ${e.message}`;
        }
        check(ok, `${key}.decode-${who} ${tag}`, why);
      }
    }
  }
}

let gtBase; // noble's e(G1, G2), computed once
function checkPairingLine(line) {
  const a = scalar(line, 'a');
  const b = scalar(line, 'b');
  const tag = `a=0x${line.a} b=0x${line.b}`;
  const ours = line.eab;
  if (typeof ours !== 'string') throw new Error('missing eab');
  // noble's pairing refuses the identity (fail-closed for signatures); e(O, Q) = e(P, O) = 1.
  const direct = a === 0n || b === 0n ? Fp12.ONE : bls.pairing(G1.Point.BASE.multiply(a), G2.Point.BASE.multiply(b));
  const theirs = fp12Hex(direct);
  check(ours === theirs, `pairing ${tag}`, diff(ours, theirs));
  gtBase ??= bls.pairing(G1.Point.BASE, G2.Point.BASE);
  const viaPow = fp12Hex(Fp12.pow(gtBase, (a * b) % r));
  check(ours === viaPow, `bilinearity ${tag}`, `cuzk e(aG1, bG2) != noble e(G1, G2)^(ab): ${diff(ours, viaPow)}`);
}

const lines = run.stdout.split('\n').filter((l) => l.length > 0);
const kinds = { scalars: 0, pairings: 0 };
const seenK = new Set();
const seenAB = new Set();
let done = null;
for (const [i, text] of lines.entries()) {
  let line;
  try {
    line = JSON.parse(text);
  } catch (e) {
    check(false, `parse line ${i + 1}`, e.message);
    continue;
  }
  if (done) check(false, `line ${i + 1}`, 'output continues after the "done" line');
  try {
    if ('k' in line) {
      checkScalarLine(line);
      kinds.scalars++;
      seenK.add(line.k);
    } else if ('a' in line) {
      checkPairingLine(line);
      kinds.pairings++;
      seenAB.add(`${line.a}:${line.b}`);
    } else if (line.done === true) {
      done = line;
    } else {
      check(false, `line ${i + 1}`, `unrecognised object ${text.slice(0, 80)}`);
    }
  } catch (e) {
    check(false, `line ${i + 1}`, e.message);
  }
}

// ---- coverage: a dumper that stops early or drops a case must not pass ---------------------
const be = (v) => v.toString(16).padStart(64, '0');
const edges = { 0: 0n, 1: 1n, 2: 2n, 'r-1': r - 1n };
for (const [name, v] of Object.entries(edges)) check(seenK.has(be(v)), `coverage.edge k=${name}`, 'no line for it');
check(seenAB.has(`${be(1n)}:${be(1n)}`), 'coverage.pairing e(G1,G2)', 'no line with a = b = 1');
check(done !== null, 'coverage.done', 'no final "done" line: dumper output truncated');
if (done) {
  check(done.scalars === kinds.scalars && done.pairings === kinds.pairings, 'coverage.count',
    `dumper says ${done.scalars} scalars, ${done.pairings} pairings; read ${kinds.scalars}, ${kinds.pairings}`);
}
const edgeHex = new Set(Object.values(edges).map(be));
const randomScalars = [...seenK].filter((k) => !edgeHex.has(k)).length; // distinct, non-edge
check(randomScalars === N && randomScalars >= MIN_RANDOM_SCALARS, 'coverage.scalars',
  `${randomScalars} random scalars checked, expected ${N} (at least ${MIN_RANDOM_SCALARS})`);
check(kinds.pairings >= MIN_PAIRINGS, 'coverage.pairings', `${kinds.pairings} pairings, expected at least ${MIN_PAIRINGS}`);
const expected = CHECKS_PER_SCALAR * (N + Object.keys(edges).length) + CHECKS_PER_PAIRING * MIN_PAIRINGS;
check(passed + failed >= expected, 'coverage.checks', `${passed + failed} checks ran, expected at least ${expected}`);
finish();
