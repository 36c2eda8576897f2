#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# cuzk-bench's daemon client commands against a real cuzk-daemon (2 KiB TEST parameters):
# one daemon on a unix socket and a TCP port (127.0.0.1:0), then status (unix, TCP, -a before
# the command), metrics, preload (loaded, already loaded, a missing 32 GiB set named by its
# .params path, an unknown id), single (one real PoRep proof written with -o and accepted by
# cuzk-bench verify; an unsupported kind; a wrong --sector-num; Curio's envelope), batch on
# failing jobs (its output format, exit 1), usage errors naming the flag (exit 2), an unreachable
# daemon (exit 1), a --timeout-ms deadline (DEADLINE_EXCEEDED; the daemon cancels the job) and
# SIGTERM (the daemon exits 0). One real proof: 20 s on a quiet 2-core VM, ~1 min when busy.
# usage: client.sh CUZK_BENCH CUZK_DAEMON PARAM_DIR
set -eu
B=$1
DAEMON=$2
P=$3
D=$(mktemp -d /tmp/cuzk-client-XXXXXX)
PID=
cleanup() {
  [ -z "$PID" ] || kill "$PID" 2>/dev/null || true
  rm -rf "$D"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*" >&2
  [ ! -f "$D/out" ] || { echo "--- last output:" >&2; cat "$D/out" >&2; }
  [ ! -f "$D/daemon.log" ] || { echo "--- daemon log:" >&2; tail -20 "$D/daemon.log" >&2; }
  exit 1
}
# run WANT_RC CMD...: runs CMD (stdout and stderr into $D/out), checks its exit code
run() {
  want=$1
  shift
  rc=0
  "$@" >"$D/out" 2>&1 || rc=$?
  [ "$rc" = "$want" ] || fail "exit $rc (want $want): $*"
}
has() { grep -q -- "$1" "$D/out" || fail "no '$1' in the output"; }
line() { grep -qx -- "$1" "$D/out" || fail "no line '$1' in the output"; }

"$B" gen-vanilla porep --sector-size 2KiB --data random:5 --miner-id 1000 --sector-num 1 \
  -o "$D/c1.json" >/dev/null
printf '["AAEC","AwQF"]\n' >"$D/vanilla.json"
printf '["AAEC"]\n' >"$D/vanilla1.json"
cat >"$D/cuzk.toml" <<EOF
[daemon]
listen = ["unix://$D/cuzk.sock", "127.0.0.1:0"]
[srs]
param_cache = "$P"
generate_test_params = false
[scheduler]
max_batch_size = 4
max_batch_wait_ms = 10000
EOF
"$DAEMON" -c "$D/cuzk.toml" >"$D/daemon.log" 2>&1 &
PID=$!
i=0
until grep -q ' ready$' "$D/daemon.log"; do
  i=$((i + 1))
  [ $i -lt 300 ] || fail "the daemon did not become ready in 30 s"
  kill -0 "$PID" 2>/dev/null || fail "the daemon exited"
  sleep 0.1
done
PORT=$(sed -n 's/.*listening on 127\.0\.0\.1:0 (port \([0-9][0-9]*\)).*/\1/p' "$D/daemon.log")
[ -n "$PORT" ] || fail "no bound port in the daemon log"
U="unix://$D/cuzk.sock"

# status: on the socket, on TCP as host:port (before the command) and http://host:port
run 0 "$B" status -a "$U"
line '=== cuzk daemon status ==='
grep -qx 'uptime:           [0-9][0-9]*s' "$D/out" || fail "uptime line"
line 'proofs completed: 0'
line 'proofs failed:    0'
line 'pinned memory:    0 / 0 bytes'
run 0 "$B" -a "127.0.0.1:$PORT" status
line 'proofs completed: 0'
run 0 "$B" status --addr="http://127.0.0.1:$PORT" --timeout-ms 5000
line '=== cuzk daemon status ==='

# metrics
run 0 "$B" metrics -a "$U"
line 'cuzk_proofs_completed_total 0'
has '# TYPE cuzk_stage_duration_seconds'
line 'cuzk_queue_depth_by_priority{priority="critical"} 0'
line 'cuzk_proofs_failed_by_reason_total{reason="invalid_request"} 0'

# preload: loaded, already loaded, a missing set (named by its .params path), an unknown id
run 0 "$B" preload -a "$U" -c porep-2k
grep -qx 'porep-2k loaded in [0-9][0-9]* ms' "$D/out" || fail "first preload"
run 0 "$B" preload -a "$U" --circuit-id porep-2k
line 'porep-2k already loaded'
run 1 "$B" preload -a "$U" -c porep-32g
has "PreloadSRS RPC failed: FAILED_PRECONDITION: porep-32g"
has "$P/v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.params"
run 1 "$B" preload -a "$U" -c porep-1t
has 'NOT_FOUND: unknown circuit id: porep-1t'
# evict: HOT -> WARM (the file stays mapped) -> COLD, then loaded again for the proof below
run 0 "$B" evict -a "$U" -c porep-2k
grep -qx 'porep-2k evicted, [0-9]\{10\} bytes freed' "$D/out" || fail "evict"
run 0 "$B" status -a "$U"
line '  porep-2k (tier=1, size=1114707768 bytes, refs=0)'
run 0 "$B" evict -a "$U" -c porep-2k
line 'porep-2k was not in memory (COLD, or WARM: now COLD) or is in use'
run 0 "$B" status -a "$U"
line '  porep-2k (tier=2, size=0 bytes, refs=0)'
run 1 "$B" evict -a "$U" -c porep-1t
has 'NOT_FOUND: unknown circuit id: porep-1t'
run 0 "$B" preload -a "$U" -c porep-2k
grep -qx 'porep-2k loaded in [0-9][0-9]* ms' "$D/out" || fail "preload after evict"

# single: failures first (they end at once), then the one real proof
run 1 "$B" single -a "$U" -t snap --vanilla "$D/vanilla1.json"
line 'status:    FAILED'
line 'error:     comm_r_old: 0 bytes, expected 32'
has "vanilla1.json: 1 vanilla proof$"
# more elements than the kind can use: refused at submit, before any is decoded
run 1 "$B" single -a "$U" -t snap --vanilla "$D/vanilla.json"
has "vanilla.json: 2 vanilla proofs"
has 'Prove RPC failed: INVALID_ARGUMENT: vanilla_proofs: 2 elements, at most 1 for an update of StackedDrg2KiBV1 (its partitions)'
run 1 "$B" single -a "$U" -t winning --vanilla "$D/vanilla.json" --registered-proof 0
has 'Prove RPC failed: INVALID_ARGUMENT: vanilla_proofs: 2 elements, at most 1 for a WinningPoSt of StackedDrgWinning2KiBV1'
run 1 "$B" single -a "$U" -t porep --c1 "$D/c1.json" --sector-num 2
line 'status:    FAILED'
has '^error:     vanilla_proof: replica_id: not the one of miner 1000 sector 2'
# Curio's envelope: sector_size, registered_proof and (without --sector-num) the sector come from
# it; SectorNum 3 is not this C1's sector, so the daemon refuses it by the replica_id
python3 -c "import base64, json, sys; print(json.dumps({'SectorNum': 3, 'Phase1Out': \
base64.b64encode(open(sys.argv[1], 'rb').read()).decode(), 'SectorSize': 2048}))" \
  "$D/c1.json" >"$D/envelope.json"
run 1 "$B" single -a "$U" -t porep --c1 "$D/envelope.json"
has 'envelope.json: envelope of StackedDrg2KiBV1_1 (registered_proof 5), sector 3, miner 1000'
has '^error:     vanilla_proof: replica_id: not the one of miner 1000 sector 3'
"$B" gen-vanilla porep --sector-size 2KiB --synthetic-for-bench -o "$D/synthetic.json" >/dev/null
run 1 "$B" single -a "$U" -t porep --c1 "$D/synthetic.json"
has '^error:     vanilla_proof: cuzk_synthetic_for_bench: a synthetic C1 made up for benchmarks'
run 0 "$B" single -a "$U" -t porep --c1 "$D/c1.json" -o "$D/proof.bin" --priority high
line '=== Proof Result ==='
line 'status:    COMPLETED'
grep -qx 'job_id:    [0-9a-f-]\{36\}' "$D/out" || fail "job_id line"
grep -qx 'timings:   total=[0-9]* ms (queue=[0-9]* ms, srs=[0-9]* ms, synth=[0-9]* ms, gpu=[0-9]* ms)' \
  "$D/out" || fail "timings line"
grep -qx 'wall time: [0-9]* ms' "$D/out" || fail "wall time line"
# alone and HIGH: never held for a batch, whatever the daemon's batch settings
line 'batching:  0 ms waiting for partners'
grep -qx 'proof:     192 bytes (hex: [0-9a-f]\{384\})' "$D/out" || fail "proof line"
[ "$(wc -c <"$D/proof.bin")" -eq 192 ] || fail "-o wrote $(wc -c <"$D/proof.bin") bytes"
run 0 "$B" verify --c1 "$D/c1.json" --param-cache "$P" --proof "$D/proof.bin"
line 'partition 0: valid'

# batch on jobs that fail at once: its output format, one line per proof in order, exit 1
run 1 "$B" batch -a "$U" -t winning --vanilla "$D/vanilla1.json" -c 3 -j 2
line '=== Batch Benchmark ==='
line 'proof type:  winning'
line 'count:       3'
line 'concurrency: 2'
grep -q '^  \[1/3\] FAILED — [0-9.]*s (prove=0 ms, queue=0 ms)$' "$D/out" || fail "batch line 1"
grep -q '^  \[3/3\] FAILED — ' "$D/out" || fail "batch line 3"
line '=== Batch Summary ==='
line 'completed:     0'
line 'failed:        3'

# the counters moved
run 0 "$B" status -a "$U"
line 'proofs completed: 1'
line 'proofs failed:    7'
run 0 "$B" metrics -a "$U"
line 'cuzk_proofs_completed_total 1'
line 'cuzk_proofs_failed_total 7'
# by reason: the snap, synthetic and batch requests are refused by their fields or format, the
# two C1s of another sector by the checks of their vanilla proofs (the requests refused at submit
# never became jobs)
for r in invalid_request:5 vanilla_check:2 parameters:0 synthesis:0 proving:0 verification:0 \
  memory:0; do
  line "cuzk_proofs_failed_by_reason_total{reason=\"${r%:*}\"} ${r#*:}"
done
for p in low normal high critical; do line "cuzk_queue_depth_by_priority{priority=\"$p\"} 0"; done

# usage errors name the flag (exit 2); an unreachable daemon is a failure (exit 1)
run 2 "$B" batch -a "$U" -t porep --c1 "$D/c1.json" -j 0
has '-j/--concurrency'
run 2 "$B" single -a "$U" -t bogus --c1 "$D/c1.json"
has '-t/--type'
run 2 "$B" single -a "$U" -t porep --c1 "$D/c1.json" --sector-num x
has '--sector-num'
run 2 "$B" single -a "$U" -t porep --vanilla "$D/vanilla.json"
has '--vanilla'
run 2 "$B" -a https://127.0.0.1:1 status
has 'TLS'
run 2 "$B" preload -a "$U"
has '-c/--circuit-id'
run 1 "$B" single -a "$U" -t porep --c1 "$D/missing.json"
has "missing.json"
run 1 "$B" status -a "unix://$D/nobody.sock"
has 'UNAVAILABLE'
run 1 "$B" batch -a "unix://$D/nobody.sock" -t porep --c1 "$D/c1.json" -c 2 -j 2
grep -q '^  \[2/2\] UNAVAILABLE — ' "$D/out" || fail "batch line of a failed call"
line 'failed:        2'

# --timeout-ms is the call's deadline: the caller is gone, the daemon cancels the job
run 1 "$B" single -a "$U" -t porep --c1 "$D/c1.json" --timeout-ms 300
has 'Prove RPC failed: DEADLINE_EXCEEDED'

# SIGTERM: the daemon stops and exits 0
kill -TERM "$PID"
rc=0
wait "$PID" || rc=$?
PID=
[ "$rc" = 0 ] || fail "the daemon exited $rc after SIGTERM"
grep -q 'stopped' "$D/daemon.log" || fail "no 'stopped' in the daemon log"
grep -q 'the Prove caller is gone: cancelling its job' "$D/daemon.log" ||
  fail "the daemon did not cancel the job of the call past its deadline"
echo "client: ok"
