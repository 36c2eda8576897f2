#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""cuzk-daemon end to end, as a real process with real clients (Debian's python3-grpcio on the
stubs generated from proto/cuzk/v1/proving.proto at test time; @grpc/grpc-js in daemon_js.mjs).

The daemon serves a unix socket and TCP 127.0.0.1:0 (its log names the port) plus HTTP status,
with the 2 KiB TEST parameters of --params. Checked, over both transports where it matters:
  * GetStatus, GetMetrics, HTTP /metrics and /status, PreloadSRS / EvictSRS (and a missing
    parameter file named in the error);
  * bad input never kills or wedges the daemon: garbage, truncated and over-limit vanilla_proof,
    wrong sector size, unknown and unsupported proof kinds, PoSt requests that do not hold (a
    Window proof id for WinningPoSt, a tampered or truncated sector proof, short randomness), a
    missing submit field, an unknown job id — each answered (FAILED in-band naming the field, or
    the gRPC status for requests that cannot be a job);
  * SnapDeals update requests that do not hold (another comm_r_new, a short comm_d_new, a PoSt
    registered proof);
  * WinningPoSt, WindowPoSt and a SnapDeals update (2 KiB, `cuzk-bench gen-vanilla` requests in
    proto3 JSON) proven once each, the transports in turn, and a WindowPoSt by the grpc-js
    client, each proof accepted by `cuzk-bench verify --request`; a WinningPoSt sent while PoRep jobs run completes before the queued PoRep job;
  * SubmitProof + AwaitProof(timeout) → TIMEOUT, CancelProof of a running and of a queued job,
    CRITICAL queued ahead of NORMAL/LOW (queue_position), each job's stage and partition while
    the pipeline is held (GetStatus jobs, /status pipelines, `cuzk-bench status`), a Prove whose
    deadline passes (DEADLINE_EXCEEDED, and the job is cancelled);
  * N concurrent Prove calls with the SAME request_id and different C1s (one in Curio's envelope)
    each get their own proof, accepted by `cuzk-bench verify` for its own C1 and rejected for
    another's; SIGTERM while they run lets them finish, answers them, and exits 0.
With --fast (the sanitizer build) the concurrent proofs are replaced by one cancelled job.
Hostile clients (floods, memory, log injection, a second daemon, HTTP): test_hostile.py.
usage: test_daemon.py --daemon D --bench B --params DIR --proto-dir P --out DIR [--node N --js F]
       [--concurrent N] [--fast]
"""
import argparse
import base64
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import grpc
from google.protobuf import json_format
from grpc_tools import protoc

FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print(f"FAIL: {what}", flush=True)
    return cond


def stubs(proto_dir, out):
    os.makedirs(out, exist_ok=True)
    rc = protoc.main(["protoc", f"-I{proto_dir}", f"--python_out={out}", f"--grpc_python_out={out}",
                      os.path.join(proto_dir, "cuzk/v1/proving.proto")])
    if rc != 0:
        sys.exit("protoc failed")
    sys.path.insert(0, out)
    from cuzk.v1 import proving_pb2, proving_pb2_grpc
    return proving_pb2, proving_pb2_grpc


class Daemon:
    def __init__(self, exe, workdir, config):
        self.cfg = os.path.join(workdir, "cuzk.toml")
        with open(self.cfg, "w") as f:
            f.write(config)
        self.log_path = os.path.join(workdir, "daemon.log")
        self.log = open(self.log_path, "w")
        self.p = subprocess.Popen([exe, "-c", self.cfg], stderr=self.log, stdout=self.log,
                                  cwd=workdir)
        self.tcp = self.http = None
        for _ in range(6000):
            text = open(self.log_path).read()
            if " ready" in text:
                m = re.search(r"listening on 127\.0\.0\.1:0 \(port (\d+)\)", text)
                self.tcp = int(m.group(1)) if m else None
                m = re.search(r"HTTP /metrics and /status on port (\d+)", text)
                self.http = int(m.group(1)) if m else None
                return
            if self.p.poll() is not None:
                break
            time.sleep(0.05)
        sys.exit(f"daemon did not start:\n{open(self.log_path).read()}")

    def text(self):
        return open(self.log_path).read()


def bench(exe, *args):
    return subprocess.run([exe, *args], capture_output=True, text=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--daemon", required=True)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--params", required=True)
    ap.add_argument("--proto-dir", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--node")
    ap.add_argument("--js")
    ap.add_argument("--concurrent", type=int, default=2)
    ap.add_argument("--fast", action="store_true")
    a = ap.parse_args()
    pb, pbg = stubs(a.proto_dir, a.out)
    work = tempfile.mkdtemp(prefix="cuzk-daemon-")
    sock = os.path.join(work, "cuzk.sock")
    config = f"""
[daemon]
listen = ["unix://{sock}", "127.0.0.1:0"]
status_listen = "127.0.0.1:0"
on_disconnect = "cancel"
shutdown = "finish"
shutdown_grace = "2h"
[srs]
param_cache = "{os.path.abspath(a.params)}"
generate_test_params = false
[synthesis]
threads = 2
[pipeline]
synthesis_workers = 1
prove_workers = 1
queue_depth = 1
[logging]
level = "debug"
"""
    d = Daemon(a.daemon, work, config)
    opts = [("grpc.max_receive_message_length", 256 << 20),
            ("grpc.max_send_message_length", 256 << 20)]
    chans = {"unix": grpc.insecure_channel(f"unix://{sock}", options=opts),
             "tcp": grpc.insecure_channel(f"127.0.0.1:{d.tcp}", options=opts)}
    stub = {k: pbg.ProvingEngineStub(c) for k, c in chans.items()}
    u = stub["unix"]

    # C1s: miner 1000, sectors 1..N (different data)
    n = max(1, a.concurrent)
    c1 = []
    for i in range(n):
        path = os.path.join(work, f"c1-{i}.json")
        r = bench(a.bench, "gen-vanilla", "porep", "--sector-size", "2KiB", "--data",
                  f"random:{100 + i}", "--miner-id", "1000", "--sector-num", str(i + 1), "-o", path)
        if not check(r.returncode == 0, f"gen-vanilla: {r.stderr}"):
            return 1
        c1.append((path, open(path, "rb").read()))

    def req(i=0, **kw):
        base = dict(request_id="porep-1000-1", proof_kind=pb.POREP_SEAL_COMMIT, sector_size=2048,
                    registered_proof=5, vanilla_proof=c1[i][1], sector_number=i + 1, miner_id=1000)
        base.update(kw)
        return pb.SubmitProofRequest(**base)

    # ---- status, metrics, HTTP, SRS
    for k, s in stub.items():
        st = s.GetStatus(pb.GetStatusRequest())
        check([x.circuit_id for x in st.loaded_srs] ==
              [f"{kind}-{size}" for kind in ("porep", "snap", "wpost", "winning")
               for size in ("2k", "8m", "512m", "32g", "64g")], f"{k}: srs ids")
        check(all(x.tier == pb.SRSStatus.COLD for x in st.loaded_srs), f"{k}: all cold at start")
        m = s.GetMetrics(pb.GetMetricsRequest()).prometheus_text
        check("# TYPE cuzk_proofs_completed_total counter\ncuzk_proofs_completed_total 0\n" in m,
              f"{k}: metrics text")
    body = urllib.request.urlopen(f"http://127.0.0.1:{d.http}/metrics").read().decode()
    check("cuzk_stage_duration_seconds" in body, "HTTP /metrics")
    status = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{d.http}/status").read())
    check(status["counters"]["total_completed"] == 0 and len(status["allocations"]["srs"]) == 20,
          "HTTP /status JSON")
    r = u.PreloadSRS(pb.PreloadSrsRequest(circuit_id="porep-2k"))
    check(not r.already_loaded and r.load_time_ms > 0, "preload porep-2k")
    r = u.PreloadSRS(pb.PreloadSrsRequest(circuit_id="porep-2k"))
    check(r.already_loaded and r.load_time_ms == 0, "preload again: already loaded")
    try:
        u.PreloadSRS(pb.PreloadSrsRequest(circuit_id="porep-32g"))
        check(False, "preload porep-32g without its file")
    except grpc.RpcError as e:
        check(e.code() == grpc.StatusCode.FAILED_PRECONDITION and
              "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.params"
              in e.details(), f"preload porep-32g error: {e.details()}")
    st = u.GetStatus(pb.GetStatusRequest())
    check(st.loaded_srs[0].tier == pb.SRSStatus.HOT and st.loaded_srs[0].size_bytes > 10**9,
          "porep-2k HOT after preload")
    r = u.EvictSRS(pb.EvictSrsRequest(circuit_id="porep-2k"))
    check(r.was_loaded and r.freed_bytes > 10**9, "evict porep-2k")
    st = u.GetStatus(pb.GetStatusRequest())
    check(st.loaded_srs[0].tier == pb.SRSStatus.WARM and st.loaded_srs[0].size_bytes > 10**9,
          "porep-2k WARM after evict (file mapped)")
    r = u.PreloadSRS(pb.PreloadSrsRequest(circuit_id="porep-2k"))
    check(not r.already_loaded and r.load_time_ms > 0, "preload porep-2k from WARM")

    # ---- bad input: answered, never fatal
    def failed(what, needle, **kw):
        for k, s in stub.items():
            res = s.Prove(pb.ProveRequest(submit=req(**kw))).result
            check(res.status == pb.AwaitProofResponse.FAILED and needle in res.error_message and
                  not res.proof, f"{k}: {what}: {res.status} '{res.error_message}'")

    failed("garbage", "vanilla_proof: ", vanilla_proof=b"\x00\xffnot json")
    failed("truncated", "vanilla_proof: ", vanilla_proof=c1[0][1][: len(c1[0][1]) // 3])
    failed("empty", "vanilla_proof: empty", vanilla_proof=b"")
    failed("wrong sector size", "sector_size: 34359738368", sector_size=34359738368)
    failed("wrong miner", "replica_id", miner_id=1001)
    failed("a C1 sent as an update", "vanilla_proof: set, but an update job takes one bincode",
           proof_kind=pb.SNAP_DEALS_UPDATE)

    # PoSt and SnapDeals requests (2 KiB): one per kind, from cuzk-bench gen-vanilla (proto3 JSON)
    post = {}
    for kind, extra in (("winning-post", []), ("window-post", ["--sectors", "2"]),
                        ("snap", ["--data", "random:3"])):
        path = os.path.join(work, f"{kind}.json")
        r = bench(a.bench, "gen-vanilla", kind, "--sector-size", "2KiB", "--miner-id", "1000",
                  *extra, "-o", path)
        if not check(r.returncode == 0, f"gen-vanilla {kind}: {r.stderr}"):
            return 1
        post[kind] = (path, json_format.ParseDict(json.load(open(path)), pb.SubmitProofRequest()))

    def post_failed(kind, what, needle, edit):
        q = pb.SubmitProofRequest()
        q.CopyFrom(post[kind][1])
        edit(q)
        for k, s in stub.items():
            res = s.Prove(pb.ProveRequest(submit=q)).result
            check(res.status == pb.AwaitProofResponse.FAILED and needle in res.error_message and
                  not res.proof, f"{k}: {what}: {res.status} '{res.error_message}'")

    def flip(q, i, at):
        v = bytearray(q.vanilla_proofs[i])
        v[at] ^= 1
        q.vanilla_proofs[i] = bytes(v)

    post_failed("winning-post", "window id for WinningPoSt",
                "is a WindowPoSt proof, but proof_kind is WINNING_POST",
                lambda q: setattr(q, "registered_proof", 10))
    post_failed("winning-post", "short randomness", "randomness: 31 bytes, expected 32",
                lambda q: setattr(q, "randomness", q.randomness[:31]))
    post_failed("winning-post", "flipped comm_c byte", "vanilla_proofs[0] (sector 1): ",
                lambda q: flip(q, 0, len(q.vanilla_proofs[0]) - 64))
    post_failed("window-post", "truncated sector proof", "vanilla_proofs[1]: ",
                lambda q: q.vanilla_proofs.__setitem__(1, q.vanilla_proofs[1][:-1]))
    post_failed("window-post", "sectors out of order", "sectors must be distinct and in ascending",
                lambda q: q.vanilla_proofs.reverse())
    post_failed("snap", "another comm_r_new", "comm_r_new is not Poseidon2(comm_c",
                lambda q: setattr(q, "comm_r_new", bytes([q.comm_r_new[0] ^ 1]) + q.comm_r_new[1:]))
    post_failed("snap", "a 31-byte comm_d_new", "comm_d_new: 31 bytes, expected 32",
                lambda q: setattr(q, "comm_d_new", q.comm_d_new[:31]))
    post_failed("snap", "an update with PoSt's registered proof 10", "not a registered update",
                lambda q: setattr(q, "registered_proof", 10))
    for k, s in stub.items():
        try:
            s.Prove(pb.ProveRequest(submit=req(proof_kind=9)))
            check(False, f"{k}: proof_kind 9 accepted")
        except grpc.RpcError as e:
            check(e.code() == grpc.StatusCode.INVALID_ARGUMENT and
                  "invalid proof_kind: 9" in e.details(), f"{k}: proof_kind 9: {e.details()}")
        try:
            s.Prove(pb.ProveRequest())
            check(False, f"{k}: missing submit accepted")
        except grpc.RpcError as e:
            check(e.code() == grpc.StatusCode.INVALID_ARGUMENT and
                  e.details() == "missing submit field", f"{k}: missing submit: {e.details()}")
        try:
            s.AwaitProof(pb.AwaitProofRequest(job_id="nope"))
            check(False, f"{k}: unknown job")
        except grpc.RpcError as e:
            check(e.code() == grpc.StatusCode.NOT_FOUND, f"{k}: unknown job: {e.code()}")
    try:  # over the 128 MiB limit
        u.Prove(pb.ProveRequest(submit=req(vanilla_proof=b"x" * (129 << 20))))
        check(False, "oversized request accepted")
    except grpc.RpcError as e:
        check(e.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, f"oversized: {e.code()}")
    # ---- submit / await timeout / cancel running and queued / priorities / deadline
    run_id = u.SubmitProof(req(0)).job_id
    res = u.AwaitProof(pb.AwaitProofRequest(job_id=run_id, timeout_ms=100))
    check(res.status == pb.AwaitProofResponse.TIMEOUT and res.job_id == run_id, "await timeout")
    # two more fill the pipeline (queue_depth 1): one synthesized and waiting for the prover, one
    # synthesized and waiting for room, so the one synthesis worker takes nothing until run_id's
    # proof ends (a partition synthesizes in 0.05 s with pre-compiled constraints: without this
    # the jobs below would leave the queue while they are counted)
    fills = [u.SubmitProof(req(0)).job_id for _ in range(2)]
    for _ in range(12000):
        m = u.GetMetrics(pb.GetMetricsRequest()).prometheus_text
        # the stages too: the last fill may be running with its partition not yet picked (then
        # synthesis_active is 0 for a moment, seen under the sanitizers)
        held = [j.stage for j in u.GetStatus(pb.GetStatusRequest()).jobs]
        if all(x in m for x in ("\ncuzk_queue_depth 0\n", "\ncuzk_running_jobs 3\n",
                                "\ncuzk_prove_queue_depth 1\n", "\ncuzk_synthesis_active 0\n",
                                "\ncuzk_prove_active 1\n")) and \
                held == ["proving", "waiting", "waiting"]:
            break
        time.sleep(0.05)
    # queue_position counts the queued jobs that go first: CRITICAL jumps NORMAL and LOW (sent
    # last: a CRITICAL job waiting releases the held worker, docs/engine.md "Priorities")
    norm = u.SubmitProof(req(0, priority=pb.NORMAL))
    low = u.SubmitProof(req(0, priority=pb.LOW))
    norm2 = u.SubmitProof(req(0))  # priority 0: PoRep's default, NORMAL
    m = u.GetMetrics(pb.GetMetricsRequest()).prometheus_text
    qp = [f'\ncuzk_queue_depth_by_priority{{priority="{p}"}} {n}\n'
          for p, n in (("low", 1), ("normal", 2), ("high", 0), ("critical", 0))]
    check(all(q in m for q in qp), "queue depth per priority: low 1, normal 2, high 0, critical 0")
    # each job's stage and partition while the pipeline is held, in scheduling order: run_id's
    # partition 0 in the prover, the fills' synthesized and waiting for it, the rest queued
    want = [(run_id, "proving", 1, 0, 0), (fills[0], "waiting", 1, 0, 0),
            (fills[1], "waiting", 1, 0, 0), (norm.job_id, "queued", 0, 0, -1),
            (norm2.job_id, "queued", 0, 0, -1), (low.job_id, "queued", 0, 0, -1)]
    prios = [pb.NORMAL] * 5 + [pb.LOW]
    st = u.GetStatus(pb.GetStatusRequest())
    check([(j.job_id, j.stage, j.total_partitions, j.partitions_done, j.current_partition)
           for j in st.jobs] == want and [j.priority for j in st.jobs] == prios and
          all(j.proof_kind == "porep-c2" for j in st.jobs) and
          st.jobs[0].submitted_ms_ago > st.jobs[3].submitted_ms_ago, f"GetStatus jobs {st.jobs}")
    status = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{d.http}/status").read())
    pipe = [(p["job_id"], p["stage"], p["total_partitions"], p["partitions_done"],
             -1 if p["current_partition"] is None else p["current_partition"])
            for p in status["pipelines"]]
    parts = [[(x["index"], x["state"]) for x in p["partitions"]] for p in status["pipelines"]]
    check(pipe == want and parts == [[(0, "proving")], [(0, "synthesized")], [(0, "synthesized")],
                                     [], [], []], f"/status pipelines {status['pipelines']}")
    r = bench(a.bench, "status", "-a", f"unix://{sock}")
    lines = [x for x in r.stdout.splitlines() if x.startswith("  ") and " porep-c2 " in x]
    got = [re.sub(r", submitted \d+\.\d s ago$", "", x) for x in lines]
    check(r.returncode == 0 and got == [
        f"  {run_id} porep-c2 normal proving partition 0, 0 of 1 proven",
        f"  {fills[0]} porep-c2 normal waiting partition 0, 0 of 1 proven",
        f"  {fills[1]} porep-c2 normal waiting partition 0, 0 of 1 proven",
        f"  {norm.job_id} porep-c2 normal queued", f"  {norm2.job_id} porep-c2 normal queued",
        f"  {low.job_id} porep-c2 low queued"], f"cuzk-bench status jobs: {r.stdout} {r.stderr}")
    crit = u.SubmitProof(req(0, priority=pb.CRITICAL))
    check(len({run_id, low.job_id, norm.job_id, crit.job_id, norm2.job_id, *fills}) == 7,
          "server-generated ids, one per call")
    pos = [norm.queue_position, low.queue_position, norm2.queue_position, crit.queue_position]
    check(pos == [0, 1, 1, 0], f"queue positions normal/low/normal/critical {pos}")
    check(not u.CancelProof(pb.CancelProofRequest(job_id=low.job_id)).was_running,
          "cancel queued: was not running")
    res = u.AwaitProof(pb.AwaitProofRequest(job_id=low.job_id))
    check(res.status == pb.AwaitProofResponse.CANCELLED, "cancelled while queued")
    check(u.CancelProof(pb.CancelProofRequest(job_id=run_id)).was_running, "cancel running")
    for j in (norm.job_id, crit.job_id, norm2.job_id, *fills):
        u.CancelProof(pb.CancelProofRequest(job_id=j))
    for j in (run_id, norm.job_id, crit.job_id, norm2.job_id, *fills):
        res = u.AwaitProof(pb.AwaitProofRequest(job_id=j))
        check(res.status == pb.AwaitProofResponse.CANCELLED, f"cancelled: {res.status}")
    try:  # the caller's deadline passes: DEADLINE_EXCEEDED, and the job is cancelled
        u.Prove(pb.ProveRequest(submit=req(0)), timeout=1.0)
        check(False, "Prove beat a 1 s deadline")
    except grpc.RpcError as e:
        check(e.code() == grpc.StatusCode.DEADLINE_EXCEEDED, f"deadline: {e.code()}")
    for _ in range(12000):
        m = u.GetMetrics(pb.GetMetricsRequest()).prometheus_text
        if "cuzk_proofs_cancelled_total 8\n" in m:
            break
        time.sleep(0.05)
    check("cuzk_proofs_cancelled_total 8\n" in m, "the deadline's job was cancelled")

    # ---- a proof of each kind, the transports taken in turn (the refusals above ran over both),
    # each verified by cuzk-bench for its own request
    if not a.fast:
        for i, (kind, (path, q)) in enumerate(post.items()):
            k = ("unix", "tcp")[i % 2]
            s = stub[k]
            res = s.Prove(pb.ProveRequest(submit=q)).result
            if not check(res.status == pb.AwaitProofResponse.COMPLETED and
                         len(res.proof) == 192, f"{k}: {kind}: {res.status} {res.error_message}"):
                continue
            pf = os.path.join(work, f"{kind}-{k}.bin")
            open(pf, "wb").write(res.proof)
            v = bench(a.bench, "verify", "--request", path, "--param-cache", a.params,
                      "--proof", pf)
            check(v.returncode == 0 and "partition 0: valid" in v.stdout,
                  f"{k}: {kind} proof verifies: {v.stdout} {v.stderr}")
        # a WinningPoSt while PoRep jobs run: it is proven before the PoRep job queued behind
        first = u.SubmitProof(req(0)).job_id
        second = u.SubmitProof(req(0)).job_id
        for _ in range(12000):
            m = u.GetMetrics(pb.GetMetricsRequest()).prometheus_text
            if "\ncuzk_prove_active 1\n" in m:
                break
            time.sleep(0.05)
        t0 = time.monotonic()
        res = u.Prove(pb.ProveRequest(submit=post["winning-post"][1])).result
        busy_s = time.monotonic() - t0
        check(res.status == pb.AwaitProofResponse.COMPLETED, f"winning during PoRep: {res.status}")
        res = u.AwaitProof(pb.AwaitProofRequest(job_id=second, timeout_ms=1))
        check(res.status == pb.AwaitProofResponse.TIMEOUT,
              f"the queued PoRep job ended before the WinningPoSt: {res.status}")
        print(f"test_daemon: WinningPoSt 2 KiB while PoRep runs: {busy_s:.2f} s", flush=True)
        for j in (first, second):
            u.CancelProof(pb.CancelProofRequest(job_id=j))
            u.AwaitProof(pb.AwaitProofRequest(job_id=j))

    # ---- @grpc/grpc-js client (GetStatus, GetMetrics, a refused kind, the PoSt requests) over
    # unix and TCP
    if a.node and a.js:
        # one proof through the second stack (the PoSt proofs above covered every kind)
        extra = [] if a.fast else ["--request", post["window-post"][0]]
        r = subprocess.run([a.node, a.js, os.path.join(a.proto_dir, "cuzk/v1/proving.proto"),
                            f"unix://{sock}", f"127.0.0.1:{d.tcp}", *extra], capture_output=True,
                           text=True, timeout=300)
        check(r.returncode == 0, f"grpc-js client: {r.stdout} {r.stderr}")

    # ---- concurrent proofs with one request_id, then SIGTERM while they run
    if a.fast:
        results = []
    else:
        env = base64.b64encode(c1[-1][1]).decode()
        envelope = json.dumps({"SectorNum": n, "Phase1Out": env, "SectorSize": 2048},
                              separators=(",", ":")).encode()
        results = [None] * n

        def prove(i):
            s = stub["tcp" if i % 2 else "unix"]
            payload = envelope if i == n - 1 else c1[i][1]
            results[i] = s.Prove(pb.ProveRequest(submit=req(i, vanilla_proof=payload))).result

        threads = [threading.Thread(target=prove, args=(i,)) for i in range(n)]
        for t in threads:
            t.start()
        for _ in range(12000):  # every call has become a job
            st = u.GetStatus(pb.GetStatusRequest())
            if sum(x.in_progress + x.pending for x in st.queues) >= n:
                break
            time.sleep(0.05)
    d.p.send_signal(signal.SIGTERM)
    if not a.fast:
        for t in threads:
            t.join()
    rc = d.p.wait(timeout=900)
    check(rc == 0, f"daemon exit status {rc} after SIGTERM")
    check("SIGTERM: shutting down" in d.text() and "stopped" in d.text(), "shutdown logged")
    ids = set()
    for i, res in enumerate(results):
        ok = check(res is not None and res.status == pb.AwaitProofResponse.COMPLETED and
                   len(res.proof) == 192, f"proof {i}: {res and res.status} {res and res.error_message}")
        if not ok:
            continue
        ids.add(res.job_id)
        pf = os.path.join(work, f"proof-{i}.bin")
        open(pf, "wb").write(res.proof)
        v = bench(a.bench, "verify", "--c1", c1[i][0], "--param-cache", a.params, "--proof", pf)
        check(v.returncode == 0 and "partition 0: valid" in v.stdout, f"proof {i} verifies")
        other = c1[(i + 1) % n][0]
        if n > 1:
            v = bench(a.bench, "verify", "--c1", other, "--param-cache", a.params, "--proof", pf)
            check(v.returncode != 0, f"proof {i} rejected for another sector's C1")
    check(len(ids) == len(results), "one job id per call")
    if FAILS:
        print(d.text()[-6000:])
        print(f"test_daemon: {len(FAILS)} failures")
        return 1
    print(f"test_daemon: ok ({n if not a.fast else 0} concurrent proofs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
