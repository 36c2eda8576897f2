// SPDX-License-Identifier: MIT OR Apache-2.0
// snarkjs (an independent implementation of the iden3 formats and of R1CS checking) reads the
// .r1cs and .wtns files cuzk writes: the counts must match, the honest witness must satisfy
// every constraint and the altered one must not.
// usage: node tests/snarkjs/check.mjs IDEN3_DUMP_BINARY
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as snarkjs from "snarkjs";

const dir = mkdtempSync(join(tmpdir(), "cuzk-iden3-"));
let failed = 0;
const check = (cond, what) => {
  if (!cond) {
    failed++;
    console.error("FAIL: " + what);
  }
};
// snarkjs 0.7 dereferences its logger when a check fails: give it a quiet one.
const quiet = { info() {}, warn() {}, error() {}, debug() {} };
try {
  const counts = JSON.parse(execFileSync(process.argv[2], [dir]).toString());
  const r1cs = join(dir, "circuit.r1cs");
  const info = await snarkjs.r1cs.info(r1cs);
  check(info.nConstraints === counts.constraints, `constraints ${info.nConstraints} vs ${counts.constraints}`);
  check(info.nVars === counts.wires, `wires ${info.nVars} vs ${counts.wires}`);
  check(info.nPubInputs === counts.public, `public inputs ${info.nPubInputs} vs ${counts.public}`);
  check(info.curve && info.curve.name === "bls12381", "curve " + (info.curve && info.curve.name));
  check((await snarkjs.wtns.check(r1cs, join(dir, "good.wtns"), quiet)) === true, "honest witness rejected");
  check((await snarkjs.wtns.check(r1cs, join(dir, "bad.wtns"), quiet)) === false, "altered witness accepted");
  console.log(`snarkjs: ${counts.constraints} constraints, ${counts.wires} wires; ${failed} failures`);
  if (info.curve && info.curve.terminate) await info.curve.terminate();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
