#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""cuzk-daemon against hostile clients (docs/engine.md "Admission", docs/deployment.md): for each
hole a client once found, the behaviour now, and that valid requests are still proven afterwards.
  1. memory from requests: a request_id over 256 bytes is INVALID_ARGUMENT (100 of 1 MB leave RSS
     within 50 MB); while valid jobs hold the pipeline and the daemon is paused (SIGUSR1), a flood
     of 300 x 1 MB NORMAL submissions stops at the NORMAL share of scheduler.max_queued_bytes and
     a flood of LOW ones at scheduler.max_queued_jobs, both RESOURCE_EXHAUSTED at once naming the
     limit, RSS bounded; a WinningPoSt (CRITICAL) sent during the flood is taken first in line
     and proven once the daemon resumes (SIGUSR2); ended results beyond scheduler.max_results
     are forgotten, oldest first;
  2. a C1 proven for a request it does not match: without miner_id, or naming another sector, the
     job ends FAILED naming the field;
  3. EvictSRS gives the memory of a parameter set back to the system (RSS drops);
  4. log injection: a request_id with a newline is escaped in the text log (no forged line);
  5. a second daemon on the same socket refuses to start, also once the lock file is deleted;
  6. HTTP status: /metrics answered beside 40 idle connections; two pipelined requests answered or
     the second refused cleanly;
  7. config: a value the engine cannot take (pipeline.prove_workers = 64) is refused at start
     naming the key and line;
  8. vanilla_proofs longer than the kind can use (issue #29): two concurrent 32 MiB SubmitProofs,
     each a 2 KiB WindowPoSt request of 16 M empty elements (2 bytes each on the wire), are
     INVALID_ARGUMENT naming the field, the count and the bound, RSS grows by less than 300 MB
     (it grew by 839 MiB when every element was decoded and queued) and GetStatus, called
     meanwhile from another connection, answers each time within 1 s (the elements' decoding
     once held every transport thread for 3.5 s); a PoRep job with a vanilla_proofs element and a
     Prove of 3 WindowPoSt elements are refused the same way;
  9. memory given back after cancelled jobs (issue #29): on a second daemon (512 MiB budget),
     paused, 40 queued 8 MB jobs raise RSS by more than 200 MB and are cancelled; RSS drops by at
     least half of what the flood added (it stayed up until memory.idle_release before). Not
     with --fast.
The jobs that held the pipeline, the WinningPoSt during the flood and one at the end are proven
and accepted by `cuzk-bench verify`. Pausing makes the floods' jobs wait whatever the machine's
speed: the held jobs alone ended before a slow flood did. --fast (sanitizer builds): the held
jobs and the WinningPoSt during the flood are taken and cancelled (only the last one is proven),
and the RSS bounds are not asserted (ASan keeps freed blocks in quarantine).
With --measure N: no checks; N submissions of 1 MB against a 256 MiB budget while three jobs
hold the pipeline, printing the daemon's peak RSS and WinningPoSt latency idle vs during the
flood (docs/performance.md "Daemon hardening figures").
With --measure-empty K: no checks; K concurrent 32 MiB SubmitProofs of empty elements (8.) against
a fresh daemon, printing their answers, the RSS growth and the slowest GetStatus meanwhile (any
daemon binary: also one from before the bounds, for the figures in docs/performance.md).
With --measure-give-back: no checks; 9. alone, printing the RSS figures.
usage: test_hostile.py --daemon D --bench B --params DIR --proto-dir P --out DIR [--fast]
       [--measure N] [--measure-empty K] [--measure-give-back]
"""
import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import grpc
from google.protobuf import json_format

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_daemon import FAILS, Daemon, bench, check, stubs  # noqa: E402

MB = 1 << 20


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(next(x for x in f if x.startswith("VmRSS:")).split()[1]) / 1024


def rss_stable(pid, tries=120):
    """RSS once it has grown less than 2 MB over the last second (at most tries / 4 s)."""
    seen = [rss_mb(pid)]
    for _ in range(tries):
        time.sleep(0.25)
        seen.append(rss_mb(pid))
        if len(seen) >= 5 and seen[-1] - seen[-5] < 2:
            break
    return seen[-1]


def config(sock, params, budget, max_jobs, max_results):
    return f"""
[daemon]
listen = ["unix://{sock}"]
status_listen = "127.0.0.1:0"
[srs]
param_cache = "{os.path.abspath(params)}"
generate_test_params = false
[memory]
idle_release = "1h"
[synthesis]
threads = 2
[pipeline]
synthesis_workers = 1
prove_workers = 1
queue_depth = 1
[scheduler]
max_queued_bytes = "{budget}"
max_queued_jobs = {max_jobs}
max_results = {max_results}
[logging]
level = "info"
"""


class Client:
    def __init__(self, a, pb, pbg, sock, work, like=None):
        """A client of the daemon at sock; its requests generated into work, or those of the
        client like (another daemon's)."""
        self.a, self.pb, self.work = a, pb, work
        ch = grpc.insecure_channel(f"unix://{sock}",
                                   options=[("grpc.max_receive_message_length", 256 << 20),
                                            ("grpc.max_send_message_length", 256 << 20)])
        self.s = pbg.ProvingEngineStub(ch)
        if like:
            for k in ("c1_path", "c1", "win_path", "win", "wpost_path", "wpost"):
                setattr(self, k, getattr(like, k))
            return
        self.c1_path = os.path.join(work, "c1.json")
        r = bench(a.bench, "gen-vanilla", "porep", "--sector-size", "2KiB", "--data", "random:7",
                  "--miner-id", "1000", "--sector-num", "1", "-o", self.c1_path)
        if r.returncode:
            sys.exit(f"gen-vanilla porep: {r.stderr}")
        self.c1 = open(self.c1_path, "rb").read()
        self.win_path = os.path.join(work, "win.json")
        r = bench(a.bench, "gen-vanilla", "winning-post", "--sector-size", "2KiB", "-o",
                  self.win_path)
        if r.returncode:
            sys.exit(f"gen-vanilla winning-post: {r.stderr}")
        self.win = json_format.ParseDict(json.load(open(self.win_path)), pb.SubmitProofRequest())
        self.wpost_path = os.path.join(work, "wpost.json")
        r = bench(a.bench, "gen-vanilla", "window-post", "--sector-size", "2KiB", "--sectors", "2",
                  "-o", self.wpost_path)
        if r.returncode:
            sys.exit(f"gen-vanilla window-post: {r.stderr}")
        self.wpost = json_format.ParseDict(json.load(open(self.wpost_path)),
                                           pb.SubmitProofRequest())

    def porep(self, **kw):
        base = dict(request_id="porep-1000-1", proof_kind=self.pb.POREP_SEAL_COMMIT,
                    sector_size=2048, registered_proof=5, vanilla_proof=self.c1, sector_number=1,
                    miner_id=1000)
        base.update(kw)
        return self.pb.SubmitProofRequest(**base)

    def metric_wait(self, needles, what, tries=6000):
        for _ in range(tries):
            m = self.s.GetMetrics(self.pb.GetMetricsRequest()).prometheus_text
            if all(n in m for n in needles):
                return True
            time.sleep(0.05)
        return check(False, what)

    def hold_queue(self):
        """Three valid jobs that hold the one synthesis worker (pipeline.queue_depth = 1): a PoRep
        job proving, a WindowPoSt partition synthesized and waiting for the prover, a second one
        synthesized and waiting for room. Jobs submitted next wait in the queue until the PoRep
        proof is done. Returns the three job ids."""
        pb = self.pb
        self.s.PreloadSRS(pb.PreloadSrsRequest(circuit_id="porep-2k"))
        self.s.PreloadSRS(pb.PreloadSrsRequest(circuit_id="wpost-2k"))
        ids = [self.s.SubmitProof(self.porep()).job_id]
        self.metric_wait(["\ncuzk_prove_active 1\n"], "the PoRep job never reached the prover")
        wpost = pb.SubmitProofRequest()
        wpost.CopyFrom(self.wpost)
        wpost.priority = pb.NORMAL
        ids += [self.s.SubmitProof(wpost).job_id for _ in range(2)]
        self.metric_wait(["\ncuzk_queue_depth 0\n", "\ncuzk_running_jobs 3\n",
                          "\ncuzk_prove_queue_depth 1\n", "\ncuzk_synthesis_active 0\n"],
                         "the synthesis worker never became held")
        return ids

    def pause(self, d, on):
        """SIGUSR1 (on) or SIGUSR2 to daemon d; returns once its cuzk_synthesis_held gauge says
        so: from then on no queued job starts, however fast the machine (docs/deployment.md
        "Pausing")."""
        os.kill(d.p.pid, signal.SIGUSR1 if on else signal.SIGUSR2)
        self.metric_wait([f"\ncuzk_synthesis_held {int(on)}\n"],
                         f"the daemon never {'paused' if on else 'resumed'}")

    def warm_up(self):
        """A PoRep and a WindowPoSt proof, each verified: the prover keeps its buffers for the
        next proofs, so RSS measured while the pipeline is held does not grow with its jobs."""
        pb = self.pb
        res = self.s.Prove(pb.ProveRequest(submit=self.porep())).result
        self.verified(res, ["--c1", self.c1_path], "PoRep before the floods")
        res = self.s.Prove(pb.ProveRequest(submit=self.wpost)).result
        self.verified(res, ["--request", self.wpost_path], "WindowPoSt before the floods")

    def winning(self):
        """Proves the WinningPoSt request; (seconds, result)."""
        t0 = time.monotonic()
        res = self.s.Prove(self.pb.ProveRequest(submit=self.win), timeout=600).result
        return time.monotonic() - t0, res

    def verified(self, res, request_args, what):
        pb = self.pb
        if not check(res.status == pb.AwaitProofResponse.COMPLETED and len(res.proof) == 192,
                     f"{what}: {res.status} {res.error_message}"):
            return
        pf = os.path.join(self.work, "proof.bin")
        open(pf, "wb").write(res.proof)
        v = bench(self.a.bench, "verify", *request_args, "--param-cache", self.a.params,
                  "--proof", pf)
        check(v.returncode == 0 and "partition 0: valid" in v.stdout,
              f"{what}: cuzk-bench verify: {v.stdout} {v.stderr}")

    def flood(self, n, size, prio, tag, sample=None):
        """n submissions of size garbage bytes; (job ids taken, refusals by detail). sample(i), if
        given, is called before every tenth submission and after the last."""
        taken, refused = [], {}
        junk = b"x" * size
        for i in range(n):
            if sample and i % 10 == 0:
                sample(i)
            try:
                taken.append(self.s.SubmitProof(self.porep(request_id=f"{tag}-{i}",
                                                           vanilla_proof=junk,
                                                           priority=prio)).job_id)
            except grpc.RpcError as e:
                key = (e.code(), e.details().split(":")[0])
                refused.setdefault(key, [0, e.details()])[0] += 1
        if sample:
            sample(n)
        return taken, refused


def flood_threads(c, pb, n, tag, threads=8):
    """c.flood of n 1 MB NORMAL submissions from several client threads (faster than one);
    (job ids taken, refusals by kind, seconds)."""
    t0 = time.monotonic()
    parts = [None] * threads

    def one(k):
        parts[k] = c.flood(n // threads + (k < n % threads), MB, pb.NORMAL, f"{tag}{k}")

    ts = [threading.Thread(target=one, args=(k,)) for k in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    refused = {}
    for p in parts:
        for key, (count, detail) in p[1].items():
            refused.setdefault(key, [0, detail])[0] += count
    return [j for p in parts for j in p[0]], refused, time.monotonic() - t0


def cancel(c, pb, ids):
    for j in ids:
        try:
            c.s.CancelProof(pb.CancelProofRequest(job_id=j))
        except grpc.RpcError:
            pass  # ended, result forgotten


def empty_list_request(pb, mib):
    """A SubmitProofRequest of about mib MiB as raw bytes: a 2 KiB WindowPoSt partition
    (StackedDrgWindow2KiBV1_1, 2 sectors) whose vanilla_proofs are empty elements, 2 bytes each
    on the wire (field 11, length 0). Returns (bytes, elements)."""
    head = (b"\x0a\x05empty" + bytes([0x10, pb.WINDOW_POST_PARTITION, 0x20, 10]) +
            b"\xb2\x01\x20" + b"\x01" * 32)  # request_id, proof_kind, registered_proof, randomness
    n = (mib * MB - len(head)) // 2
    return head + b"\x5a\x00" * n, n


def empty_list_flood(pb, pbg, sock, pid, msgs, mib):
    """msgs concurrent SubmitProofs of empty_list_request(mib), each on its own connection, while
    GetStatus is called in a loop from another one and the daemon's RSS is sampled every 20 ms.
    Returns (answers: (status name, details) per call, RSS before, peak RSS, GetStatus latencies
    in s while the calls were in flight)."""
    raw, _ = empty_list_request(pb, mib)
    opts = [("grpc.max_receive_message_length", 256 << 20),
            ("grpc.max_send_message_length", 256 << 20)]
    answers = [None] * msgs
    before = rss_stable(pid)
    peak = [before]
    lat = []
    done = threading.Event()

    def send(k):
        ch = grpc.insecure_channel(f"unix://{sock}", options=opts)
        call = ch.unary_unary("/cuzk.v1.ProvingEngine/SubmitProof")
        try:
            call(raw, timeout=600)
            answers[k] = ("OK", "")
        except grpc.RpcError as e:
            answers[k] = (e.code().name, e.details())
        ch.close()

    def sample():
        while not done.is_set():
            peak.append(rss_mb(pid))
            time.sleep(0.02)

    status = pbg.ProvingEngineStub(grpc.insecure_channel(f"unix://{sock}"))
    status.GetStatus(pb.GetStatusRequest())  # connected before the flood
    sampler = threading.Thread(target=sample)
    sampler.start()
    senders = [threading.Thread(target=send, args=(k,)) for k in range(msgs)]
    for t in senders:
        t.start()
    while any(t.is_alive() for t in senders):
        t0 = time.monotonic()
        status.GetStatus(pb.GetStatusRequest(), timeout=600)
        lat.append(time.monotonic() - t0)
        time.sleep(0.01)
    for t in senders:
        t.join()
    done.set()
    sampler.join()
    return answers, before, max(peak), lat


def measure_empty(a, pb, pbg, work, k):
    """--measure-empty K: k concurrent 32 MiB empty-element SubmitProofs against a fresh daemon."""
    sock = os.path.join(work, "e.sock")
    d = Daemon(a.daemon, work, config(sock, a.params, "64MiB", 1000, 100))
    answers, before, peak, lat = empty_list_flood(pb, pbg, sock, d.p.pid, k, 32)
    print(f"{k} x 32 MiB SubmitProof of {empty_list_request(pb, 32)[1]} empty elements: answers "
          f"{answers}")
    print(f"RSS {before:.0f} MB before, peak {peak:.0f} MB (+{peak - before:.0f}), "
          f"{rss_stable(d.p.pid):.0f} MB after; GetStatus meanwhile: {len(lat)} calls, slowest "
          f"{max(lat) if lat else 0:.3f} s")
    d.p.terminate()
    d.p.wait(timeout=600)
    return 0


def cancelled_flood(a, pb, pbg, work, like, n=40, size=8 * MB):
    """9.: a second daemon (512 MiB budget: NORMAL share 384 MiB), paused; n submissions of size
    bytes queued, then cancelled. Returns (taken, RSS before, RSS with the flood queued, RSS
    after the cancels)."""
    sock = os.path.join(work, "g.sock")
    wd = os.path.join(work, "give-back")
    os.makedirs(wd, exist_ok=True)
    d = Daemon(a.daemon, wd, config(sock, a.params, "512MiB", 1000, 100))
    c = Client(a, pb, pbg, sock, wd, like=like)
    c.pause(d, True)
    before = rss_stable(d.p.pid)
    taken, _ = c.flood(n, size, pb.NORMAL, "give-back")
    flooded = rss_stable(d.p.pid)
    # paused: all of them still hold their input (no job was prepared, none failed)
    m = c.s.GetMetrics(pb.GetMetricsRequest()).prometheus_text
    held_in = int(m.split("\ncuzk_input_bytes ")[1].split()[0])
    check(f"\ncuzk_queue_depth {len(taken)}\n" in m and held_in >= len(taken) * size,
          f"the {len(taken)} jobs of the paused daemon do not all wait with their input "
          f"({held_in} bytes held)")
    cancel(c, pb, taken)
    after = rss_stable(d.p.pid)
    d.p.terminate()
    d.p.wait(timeout=600)
    return taken, before, flooded, after


def measure(a, pb, pbg, work, n):
    """1) n x 1 MB while three jobs hold the pipeline: taken, refused, peak RSS; 2) WinningPoSt
    latency idle and during such a flood (three rounds each). A CRITICAL job waiting releases the
    held synthesis worker (docs/engine.md "Priorities"), after which the queue drains: each
    WinningPoSt of 2) is sent once the flood has filled the queue, one per round."""
    sock = os.path.join(work, "m.sock")
    d = Daemon(a.daemon, work, config(sock, a.params, "256MiB", 100000, 0))
    c = Client(a, pb, pbg, sock, work)
    start = rss_mb(d.p.pid)
    c.winning()  # loads the WinningPoSt parameters
    idle = [c.winning()[0] for _ in range(3)]

    c.warm_up()
    held = c.hold_queue()
    before = rss_stable(d.p.pid)
    peak = [before]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak.append(rss_mb(d.p.pid))
            time.sleep(0.02)

    sampler = threading.Thread(target=sample)
    sampler.start()
    taken, refused, secs = flood_threads(c, pb, n, "flood")
    done.set()
    sampler.join()
    nref = sum(v[0] for v in refused.values())
    print(f"flood: {n} x 1 MB NORMAL submissions in {secs:.1f} s while three jobs hold the "
          f"pipeline: {len(taken)} taken, {nref} refused "
          f"({'; '.join(f'{k[0].name} {v[0]}: {v[1]}' for k, v in refused.items())})")
    print(f"RSS: {start:.0f} MB at start, {before:.0f} MB with the pipeline held, peak "
          f"{max(peak):.0f} MB during the flood (budget 256 MiB, NORMAL share 192 MiB)")
    cancel(c, pb, taken + held)

    busy = []
    for r in range(3):
        held = c.hold_queue()
        got = {}
        t = threading.Thread(target=lambda: got.update(zip(("taken", "refused", "s"),
                                                           flood_threads(c, pb, 400, f"r{r}-"))))
        t.start()
        c.metric_wait(["\ncuzk_queue_depth 1"], "the flood never filled the queue")
        busy.append(c.winning()[0])
        t.join()
        cancel(c, pb, got["taken"] + held)
    print(f"WinningPoSt 2 KiB Prove latency: idle {statistics.median(idle):.2f} s "
          f"({', '.join(f'{x:.2f}' for x in idle)}), sent once the flood has filled the queue "
          f"{statistics.median(busy):.2f} s ({', '.join(f'{x:.2f}' for x in busy)}), "
          f"ratio {statistics.median(busy) / statistics.median(idle):.2f}")
    d.p.terminate()
    d.p.wait(timeout=600)
    return 0


def main():
    ap = argparse.ArgumentParser()
    for k in ("--daemon", "--bench", "--params", "--proto-dir", "--out"):
        ap.add_argument(k, required=True)
    ap.add_argument("--fast", action="store_true")
    ap.add_argument("--measure", type=int, default=0)
    ap.add_argument("--measure-empty", type=int, default=0)
    ap.add_argument("--measure-give-back", action="store_true")
    a = ap.parse_args()
    pb, pbg = stubs(a.proto_dir, a.out)
    work = tempfile.mkdtemp(prefix="cuzk-hostile-")
    if a.measure:
        return measure(a, pb, pbg, work, a.measure)
    if a.measure_empty:
        return measure_empty(a, pb, pbg, work, a.measure_empty)
    if a.measure_give_back:
        taken, held, flooded, after = cancelled_flood(
            a, pb, pbg, work, Client(a, pb, pbg, os.path.join(work, "none.sock"), work))
        print(f"{len(taken)} x 8 MB queued in a paused daemon, then cancelled: RSS {held:.0f} MB "
              f"held, {flooded:.0f} MB queued, {after:.0f} MB after the cancels")
        return 0
    Done = pb.AwaitProofResponse

    # 7. config ranges: refused at start, naming key and line
    bad = os.path.join(work, "bad.toml")
    with open(bad, "w") as f:
        f.write("[pipeline]\nsynthesis_workers = 1\nprove_workers = 64\n")
    r = subprocess.run([a.daemon, "-c", bad], capture_output=True, text=True, timeout=60)
    check(r.returncode != 0 and "prove_workers" in r.stderr and "line 3" in r.stderr,
          f"prove_workers = 64: rc {r.returncode} {r.stderr.strip()}")

    # the daemon under test: a 40 MiB input budget (NORMAL share 30 MiB), 40 waiting jobs per
    # priority, 30 results kept
    sock = os.path.join(work, "cuzk.sock")
    d = Daemon(a.daemon, work, config(sock, a.params, "40MiB", 40, 30))
    c = Client(a, pb, pbg, sock, work)
    u = c.s
    start_rss = rss_mb(d.p.pid)

    # 1a. request_id: 100 of 1 MB refused at once, holding no memory
    refused = 0
    for i in range(100):
        try:
            u.SubmitProof(c.porep(request_id="r" * MB))
        except grpc.RpcError as e:
            refused += e.code() == grpc.StatusCode.INVALID_ARGUMENT and \
                "request_id: 1048576 bytes, at most 256" in e.details()
    after = rss_mb(d.p.pid)
    check(refused == 100, f"1 MB request_ids: {refused} of 100 refused as INVALID_ARGUMENT")
    check(a.fast or after < start_rss + 50,
          f"RSS {start_rss:.0f} MB before 100 x 1 MB request_ids, {after:.0f} after")

    # 1b. floods while valid jobs hold the pipeline and the daemon is paused: count (LOW), then
    # bytes (NORMAL). Unless --fast, a PoRep and a WindowPoSt job are proven first: the prover
    # keeps its buffers for the next proofs, so the RSS measured before the floods does not grow
    # with the held jobs. Paused, no queued job starts (a flood's would be prepared, fail and
    # give its memory back) however fast the machine; the held jobs run to their end meanwhile.
    if not a.fast:
        c.warm_up()
    held = c.hold_queue()
    c.pause(d, True)
    # awaited from now on, so their results outlive the result bound whatever ends first
    held_res = [None] * len(held)

    def await_held(i):
        held_res[i] = u.AwaitProof(pb.AwaitProofRequest(job_id=held[i]))

    waiters = [threading.Thread(target=await_held, args=(i,)) for i in range(len(held))]
    for t in waiters:
        t.start()
    before = rss_stable(d.p.pid)
    small, refusals = c.flood(45, 100, pb.LOW, "low")
    count_refusals = refusals.get((grpc.StatusCode.RESOURCE_EXHAUSTED, "queue full"), [0, ""])
    check(len(small) == 40 and count_refusals[0] == 5 and
          "scheduler.max_queued_jobs" in count_refusals[1],
          f"LOW flood: {len(small)} taken, refusals {refusals}")
    peak = before

    def sample(i):
        nonlocal peak
        peak = max(peak, rss_mb(d.p.pid))

    t0 = time.monotonic()
    taken, refusals = c.flood(300, MB, pb.NORMAL, "normal", sample)
    flood_s = time.monotonic() - t0
    byte_refusals = refusals.get((grpc.StatusCode.RESOURCE_EXHAUSTED, "input budget"), [0, ""])
    check(25 <= len(taken) <= 30 and byte_refusals[0] == 300 - len(taken) and
          "scheduler.max_queued_bytes" in byte_refusals[1],
          f"NORMAL flood: {len(taken)} taken, refusals {refusals}")
    # 300 MB offered, 30 MiB taken: bounded well below what taking them all would hold
    check(a.fast or peak < before + 30 + 100,
          f"RSS {before:.0f} MB before the flood, {peak:.0f} MB at most over the 300 x 1 MB "
          f"(30 MiB taken) in {flood_s:.1f} s")
    # a WinningPoSt (CRITICAL) during the flood: taken, and first in line ahead of the 70 flood
    # jobs (docs/engine.md "Priorities"); proven once the daemon resumes (--fast: cancelled, the
    # sanitizer build proves one at the end)
    try:
        win = u.SubmitProof(c.win)
        check(win.queue_position == 0,
              f"WinningPoSt during the flood: queue position {win.queue_position}, not first")
    except grpc.RpcError as e:
        win = None
        check(False, f"WinningPoSt during the flood refused: {e.code()} {e.details()}")
    # the flood's jobs end, cancelled while queued; the jobs under them are proven unless --fast
    for j in small + taken + (held if a.fast else []):
        try:
            u.CancelProof(pb.CancelProofRequest(job_id=j))
        except grpc.RpcError as e:  # ended and its result already forgotten
            check(e.code() == grpc.StatusCode.NOT_FOUND, f"cancel {j}: {e.code()}")
    if win and a.fast:
        u.CancelProof(pb.CancelProofRequest(job_id=win.job_id))
    c.pause(d, False)
    if win and not a.fast:
        t0 = time.monotonic()
        res = u.AwaitProof(pb.AwaitProofRequest(job_id=win.job_id))
        c.verified(res, ["--request", c.win_path], "WinningPoSt during the flood")
        print(f"test_hostile: WinningPoSt 2 KiB sent during the flood, resumed to its proof in "
              f"{time.monotonic() - t0:.2f} s", flush=True)
    for t in waiters:
        t.join()
    for res, args in zip(held_res, (["--c1", c.c1_path], ["--request", c.wpost_path],
                                    ["--request", c.wpost_path])):
        if a.fast:
            check(res.status in (Done.CANCELLED, Done.COMPLETED), f"a held job: {res.status}")
        else:
            c.verified(res, args, "a job that held the pipeline under the flood")
    # 1c. results: 30 kept, the oldest forgotten
    ended = 0
    for j in small + taken:
        try:
            res = u.AwaitProof(pb.AwaitProofRequest(job_id=j, timeout_ms=1))
            ended += res.status in (Done.CANCELLED, Done.FAILED)
        except grpc.RpcError as e:
            check(e.code() == grpc.StatusCode.NOT_FOUND, f"await {j}: {e.code()}")
    check(ended <= 30 and ended >= 25, f"{ended} of {len(small + taken)} flood results kept")
    try:
        u.AwaitProof(pb.AwaitProofRequest(job_id=small[0], timeout_ms=1))
        check(False, "the oldest result is still kept")
    except grpc.RpcError as e:
        check(e.code() == grpc.StatusCode.NOT_FOUND, f"the oldest result: {e.code()}")

    # 2. a C1 for another request: no miner_id, another sector
    for what, needle, kw in (("no miner_id", "miner_id: 0", dict(miner_id=0)),
                             ("another sector", "replica_id", dict(sector_number=8)),
                             ("another miner", "replica_id", dict(miner_id=1001))):
        res = u.Prove(pb.ProveRequest(submit=c.porep(**kw))).result
        check(res.status == Done.FAILED and needle in res.error_message and not res.proof,
              f"{what}: {res.status} '{res.error_message}'")

    # 3. EvictSRS returns memory to the system, once no job holds the set: a job cancelled while
    # running ends at its next boundary, which a loaded machine reaches later (EvictSRS of a set
    # in use frees nothing, as it should)
    for _ in range(12000):
        if not u.GetStatus(pb.GetStatusRequest()).jobs:
            break
        time.sleep(0.05)
    check(not u.GetStatus(pb.GetStatusRequest()).jobs, "jobs still running before EvictSRS")
    r = u.PreloadSRS(pb.PreloadSrsRequest(circuit_id="porep-2k"))
    loaded = rss_mb(d.p.pid)
    r = u.EvictSRS(pb.EvictSrsRequest(circuit_id="porep-2k"))
    evicted = rss_mb(d.p.pid)
    check(r.was_loaded and r.freed_bytes > 10**9, f"evict porep-2k: {r}")
    check(a.fast or loaded - evicted > 0.5 * r.freed_bytes / MB,
          f"RSS {loaded:.0f} MB loaded, {evicted:.0f} MB after EvictSRS freed "
          f"{r.freed_bytes / MB:.0f} MB")

    # 4. a request_id with a newline cannot forge a log line
    forged = "2026-01-01T00:00:00.000Z ERROR [forged] this line was written by a client"
    res = u.Prove(pb.ProveRequest(submit=c.porep(request_id="x\n" + forged,
                                                 vanilla_proof=b"not a C1"))).result
    check(res.status == Done.FAILED, f"the forging request: {res.status}")
    check(not any(line.startswith(forged) for line in d.text().splitlines()) and
          "request_id 'x\\x0a2026-01-01" in d.text(), "a request_id's newline escaped in the log")

    # 5. a second daemon on the same socket refuses to start
    w2 = tempfile.mkdtemp(prefix="cuzk-hostile2-")
    with open(os.path.join(w2, "c.toml"), "w") as f:
        f.write(f'[daemon]\nlisten = "unix://{sock}"\n')
    r = subprocess.run([a.daemon, "-c", os.path.join(w2, "c.toml")], capture_output=True,
                       text=True, timeout=30)
    check(r.returncode != 0 and "lock" in r.stderr, f"second daemon: rc {r.returncode} {r.stderr}")
    # ... also once the lock file is gone: the live socket answers, so it is not taken over
    os.unlink(sock + ".lock")
    r = subprocess.run([a.daemon, "-c", os.path.join(w2, "c.toml")], capture_output=True,
                       text=True, timeout=30)
    check(r.returncode != 0 and "a server answers on it" in r.stderr,
          f"second daemon without the lock file: rc {r.returncode} {r.stderr}")

    # 6. HTTP status beside 40 idle connections; pipelined requests
    idle = [socket.create_connection(("127.0.0.1", d.http)) for _ in range(40)]
    t0 = time.monotonic()
    body = urllib.request.urlopen(f"http://127.0.0.1:{d.http}/metrics", timeout=30).read()
    check(b"cuzk_proofs_completed_total" in body,
          f"/metrics beside 40 idle connections ({time.monotonic() - t0:.2f} s)")
    for s in idle:
        s.close()
    with socket.create_connection(("127.0.0.1", d.http), timeout=30) as s:
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"
                  b"GET /status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        got = b""
        while True:
            b = s.recv(65536)
            if not b:
                break
            got += b
    n200 = got.count(b"HTTP/1.1 200 OK\r\n")
    check(n200 == 2 or (n200 == 1 and b"\r\nConnection: close\r\n" in got),
          f"pipelined: {n200} answers")

    # 8. vanilla_proofs longer than the kind can use: refused before the elements are decoded
    answers, before8, peak8, lat = empty_list_flood(pb, pbg, sock, d.p.pid, 2, 32)
    n = empty_list_request(pb, 32)[1]
    want = (f"vanilla_proofs: {n} elements, at most 2 for a WindowPoSt partition of "
            "StackedDrgWindow2KiBV1_1")
    check(all(x[0] == "INVALID_ARGUMENT" and want in x[1] for x in answers),
          f"2 x 32 MiB of empty elements: {answers}")
    check(a.fast or peak8 - before8 < 300,
          f"RSS {before8:.0f} MB before 2 x 32 MiB of empty elements, {peak8:.0f} MB at most")
    check(lat and max(lat) < 1.0,
          f"GetStatus during 2 x 32 MiB of empty elements: {len(lat)} calls, slowest "
          f"{max(lat) if lat else 0:.2f} s")
    for what, req, needle in (
            ("a PoRep job with a vanilla_proofs element",
             pb.ProveRequest(submit=c.porep(vanilla_proofs=[b""])),
             "vanilla_proofs: 1 elements, at most 0 for a PoRep job"),
            ("a Prove of 3 WindowPoSt elements",
             pb.ProveRequest(submit=pb.SubmitProofRequest(
                 proof_kind=pb.WINDOW_POST_PARTITION, registered_proof=10,
                 vanilla_proofs=[b"", b"", b""])),
             "vanilla_proofs: 3 elements, at most 2 for a WindowPoSt partition")):
        try:
            u.Prove(req)
            check(False, f"{what}: taken")
        except grpc.RpcError as e:
            check(e.code() == grpc.StatusCode.INVALID_ARGUMENT and needle in e.details(),
                  f"{what}: {e.code()} {e.details()}")
    m = u.GetMetrics(pb.GetMetricsRequest()).prometheus_text
    check("\ncuzk_input_bytes 0\n" in m, "input bytes held after the refusals")
    print(f"test_hostile: 2 x 32 MiB of {n} empty elements refused; RSS +{peak8 - before8:.0f} MB "
          f"at most, GetStatus {len(lat)} times meanwhile, slowest {max(lat or [0]):.3f} s",
          flush=True)

    # 9. memory given back after a flood of queued jobs is cancelled
    if not a.fast:
        taken, held9, flooded9, after9 = cancelled_flood(a, pb, pbg, work, c)
        check(len(taken) == 40 and flooded9 - held9 > 200,
              f"the flood to cancel: {len(taken)} of 40 x 8 MB taken, RSS {held9:.0f} MB held, "
              f"{flooded9:.0f} MB with the flood queued")
        check(flooded9 - after9 >= 0.5 * (flooded9 - held9),
              f"RSS {held9:.0f} MB held, {flooded9:.0f} MB with 40 x 8 MB queued, {after9:.0f} MB "
              "once they were cancelled: not given back")
        print(f"test_hostile: RSS {held9:.0f} MB held, {flooded9:.0f} MB with 40 x 8 MB queued, "
              f"{after9:.0f} MB once cancelled", flush=True)

    # still serving: a WinningPoSt is proven
    _, res = c.winning()
    c.verified(res, ["--request", c.win_path], "WinningPoSt after everything")
    print(f"test_hostile: RSS {before:.0f} MB before the floods (three jobs in the pipeline), "
          f"{peak:.0f} MB at most over the 300 x 1 MB ({flood_s:.1f} s)", flush=True)
    d.p.terminate()
    check(d.p.wait(timeout=600) == 0, "daemon exit status after SIGTERM")
    if FAILS:
        print(d.text()[-4000:])
    print(f"test_hostile: {len(FAILS)} failures" if FAILS else "test_hostile: ok", flush=True)
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
