// The daemon from a second, independent gRPC stack: @grpc/grpc-js with the .proto loaded at run
// time by @grpc/proto-loader. For each address (unix:///path and host:port): GetStatus lists the
// five PoRep parameter sets, GetMetrics has the reference's counters, and a Prove of a kind
// without a circuit answers FAILED in-band with the reason.
//
//   node tests/server/daemon_js.mjs PROTO_FILE ADDRESS...
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';

const [protoFile, ...addrs] = process.argv.slice(2);
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

for (const addr of addrs) {
  const client = new ProvingEngine(addr, grpc.credentials.createInsecure());
  const st = await call(client, 'GetStatus', {});
  check(
    st.loaded_srs.map((s) => s.circuit_id).join(',') === 'porep-2k,porep-8m,porep-512m,porep-32g,porep-64g',
    `${addr}: GetStatus loaded_srs`,
  );
  const m = await call(client, 'GetMetrics', {});
  check(m.prometheus_text.includes('# TYPE cuzk_proofs_failed_total counter'), `${addr}: GetMetrics`);
  const r = await call(client, 'Prove', {
    submit: { request_id: 'js', proof_kind: 'WINDOW_POST_PARTITION', sector_size: '34359738368' },
  });
  check(
    r.result.status === 'FAILED' && r.result.error_message.includes('unsupported proof kind: window_post'),
    `${addr}: Prove window_post: ${r.result.status} ${r.result.error_message}`,
  );
  check(r.result.job_id.length === 36, `${addr}: server-generated job id ${r.result.job_id}`);
  client.close();
}
console.log(failures ? `daemon_js: ${failures} failures` : `daemon_js: ok (${addrs.length} addresses)`);
process.exit(failures ? 1 : 0);
