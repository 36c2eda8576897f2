// SPDX-License-Identifier: MIT OR Apache-2.0
// The daemon from a second, independent gRPC stack: @grpc/grpc-js with the .proto loaded at run
// time by @grpc/proto-loader. For each address (unix:///path and host:port): GetStatus lists the
// fifteen parameter sets (PoRep, WindowPoSt, WinningPoSt), GetMetrics has the reference's
// counters, a WindowPoSt Prove naming a WinningPoSt proof answers FAILED in-band with the reason;
// each --request FILE (a cuzk-bench gen-vanilla PoSt request: SubmitProofRequest in proto3 JSON)
// is proven once, on the addresses in turn: COMPLETED with one 192-byte proof.
//
//   node tests/server/daemon_js.mjs PROTO_FILE ADDRESS... [--request FILE]...
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';

import { readFileSync } from 'node:fs';

const [protoFile, ...rest] = process.argv.slice(2);
const addrs = [];
const requests = [];
for (let i = 0; i < rest.length; i++) {
  if (rest[i] === '--request') requests.push(JSON.parse(readFileSync(rest[++i], 'utf8')));
  else addrs.push(rest[i]);
}
if (!protoFile || addrs.length === 0) {
  console.error('usage: daemon_js.mjs PROTO_FILE ADDRESS...');
  process.exit(2);
}
const def = protoLoader.loadSync(protoFile, { keepCase: true, longs: String, enums: String });
const { ProvingEngine } = grpc.loadPackageDefinition(def).cuzk.v1;

const call = (client, method, req) =>
  new Promise((resolve, reject) =>
    client[method](req, { deadline: Date.now() + 60000 }, (err, res) => (err ? reject(err) : resolve(res))));

let failures = 0;
const check = (cond, what) => {
  if (!cond) {
    failures++;
    console.log(`FAIL: ${what}`);
  }
};

for (const [ai, addr] of addrs.entries()) {
  const client = new ProvingEngine(addr, grpc.credentials.createInsecure());
  const st = await call(client, 'GetStatus', {});
  check(
    st.loaded_srs.map((s) => s.circuit_id).join(',') ===
      ['porep', 'snap', 'wpost', 'winning'].flatMap((k) => ['2k', '8m', '512m', '32g', '64g'].map((s) => `${k}-${s}`)).join(','),
    `${addr}: GetStatus loaded_srs`,
  );
  const m = await call(client, 'GetMetrics', {});
  check(m.prometheus_text.includes('# TYPE cuzk_proofs_failed_total counter'), `${addr}: GetMetrics`);
  const r = await call(client, 'Prove', {
    submit: { request_id: 'js', proof_kind: 'WINDOW_POST_PARTITION', sector_size: '34359738368' },
  });
  check(
    r.result.status === 'FAILED' &&
      r.result.error_message.includes('registered_proof: 0 (StackedDrgWinning2KiBV1) is a WinningPoSt proof'),
    `${addr}: Prove window_post: ${r.result.status} ${r.result.error_message}`,
  );
  check(r.result.job_id.length === 36, `${addr}: server-generated job id ${r.result.job_id}`);
  // each request proven once, the addresses taken in turn (a proof is the same on every one)
  for (const q of requests.filter((_, qi) => qi % addrs.length === ai)) {
    const submit = { ...q, request_id: 'js-post' };
    for (const f of ['randomness', 'comm_r_old', 'comm_r_new', 'comm_d_new'])
      if (f in q) submit[f] = Buffer.from(q[f], 'base64');
    submit.vanilla_proofs = q.vanilla_proofs.map((v) => Buffer.from(v, 'base64'));
    const p = await call(client, 'Prove', { submit });
    check(
      p.result.status === 'COMPLETED' && p.result.proof.length === 192,
      `${addr}: Prove ${q.proof_kind}: ${p.result.status} ${p.result.error_message}`,
    );
  }
  client.close();
}
console.log(failures ? `daemon_js: ${failures} failures` : `daemon_js: ok (${addrs.length} addresses)`);
process.exit(failures ? 1 : 0);
