#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Wire compatibility of proto/cuzk/v1/proving.proto and the C gRPC transport.

1. Compiles the .proto with grpc_tools.protoc (Python stubs, into --out) and checks the
   descriptor against the table below, transcribed from docs/spec/cuzk-interface.md §1.1, §1.3
   and §1.4: file name and package, the service's eight methods with their types, and every
   message's fields (number, name, type, repeated) and every enum's values, with nothing extra on
   either side but cuzk's additions, listed apart (ADDED_FIELDS, ADDED_MESSAGES: GetStatus's
   jobs and build, AwaitProofResponse's batch_wait_ms) and kept out of the reference's way.
2. Starts the C test server (tests/server/rpc_wire_server.c, --server) on a unix socket and on
   TCP 127.0.0.1:0 and calls every method from Python's grpcio over both: messages encoded by
   Python are decoded by protobuf-c (the server answers with what it decoded) and the C answers
   decode in Python. Also: a 6 MiB request and response (over gRPC's 4 MiB default limit),
   an unknown method (UNIMPLEMENTED), a missing submit field (INVALID_ARGUMENT).

Needs Debian's python3-grpcio, python3-grpc-tools and python3-protobuf (scripts/install-deps).
"""
import argparse
import importlib
import os
import subprocess
import sys
import tempfile

try:
    import grpc
    from google.protobuf import descriptor as pbd
    from grpc_tools import protoc
except ImportError as e:
    sys.exit(f"test_proto_wire: {e}: install python3-grpcio python3-grpc-tools python3-protobuf "
             "(scripts/install-deps) and run with the interpreter that has them")

# ---- the contract (docs/spec/cuzk-interface.md §1.1-§1.4) ----------------------------------------

METHODS = {  # name: (request, response)
    "SubmitProof": ("SubmitProofRequest", "SubmitProofResponse"),
    "AwaitProof": ("AwaitProofRequest", "AwaitProofResponse"),
    "Prove": ("ProveRequest", "ProveResponse"),
    "CancelProof": ("CancelProofRequest", "CancelProofResponse"),
    "GetStatus": ("GetStatusRequest", "GetStatusResponse"),
    "GetMetrics": ("GetMetricsRequest", "GetMetricsResponse"),
    "PreloadSRS": ("PreloadSrsRequest", "PreloadSrsResponse"),
    "EvictSRS": ("EvictSrsRequest", "EvictSrsResponse"),
}

ENUMS = {
    "ProofKind": {"PROOF_KIND_UNSPECIFIED": 0, "POREP_SEAL_COMMIT": 1, "SNAP_DEALS_UPDATE": 2,
                  "WINDOW_POST_PARTITION": 3, "WINNING_POST": 4},
    "Priority": {"PRIORITY_UNSPECIFIED": 0, "LOW": 1, "NORMAL": 2, "HIGH": 3, "CRITICAL": 4},
    "AwaitProofResponse.Status": {"UNKNOWN": 0, "COMPLETED": 1, "FAILED": 2, "CANCELLED": 3,
                                  "TIMEOUT": 4},
    "SRSStatus.Tier": {"HOT": 0, "WARM": 1, "COLD": 2},
}

# message: [(number, name, type)]; "repeated X" for repeated fields; message and enum types by
# their name inside cuzk.v1.
MESSAGES = {
    "SubmitProofRequest": [
        (1, "request_id", "string"), (2, "proof_kind", "ProofKind"), (3, "sector_size", "uint64"),
        (4, "registered_proof", "uint64"), (5, "priority", "Priority"),
        (10, "vanilla_proof", "bytes"), (11, "vanilla_proofs", "repeated bytes"),
        (20, "sector_number", "uint64"), (21, "miner_id", "uint64"), (22, "randomness", "bytes"),
        (23, "partition_index", "uint32"), (30, "comm_r_old", "bytes"),
        (31, "comm_r_new", "bytes"), (32, "comm_d_new", "bytes")],
    "SubmitProofResponse": [
        (1, "job_id", "string"), (2, "queue_position", "uint32"), (3, "assigned_gpu", "string")],
    "AwaitProofRequest": [(1, "job_id", "string"), (2, "timeout_ms", "uint64")],
    "AwaitProofResponse": [
        (1, "job_id", "string"), (2, "status", "AwaitProofResponse.Status"), (3, "proof", "bytes"),
        (4, "error_message", "string"), (10, "queue_wait_ms", "uint64"),
        (11, "srs_load_ms", "uint64"), (12, "synthesis_ms", "uint64"),
        (13, "gpu_compute_ms", "uint64"), (14, "total_ms", "uint64")],
    "ProveRequest": [(1, "submit", "SubmitProofRequest")],
    "ProveResponse": [(1, "result", "AwaitProofResponse")],
    "CancelProofRequest": [(1, "job_id", "string")],
    "CancelProofResponse": [(1, "was_running", "bool")],
    "GetStatusRequest": [],
    "GetStatusResponse": [
        (1, "gpus", "repeated GPUStatus"), (2, "loaded_srs", "repeated SRSStatus"),
        (3, "queues", "repeated QueueStatus"), (4, "total_proofs_completed", "uint64"),
        (5, "total_proofs_failed", "uint64"), (6, "uptime_seconds", "uint64"),
        (7, "pinned_memory_bytes", "uint64"), (8, "pinned_memory_limit_bytes", "uint64")],
    "GPUStatus": [
        (1, "ordinal", "uint32"), (2, "name", "string"), (3, "vram_total_bytes", "uint64"),
        (4, "vram_free_bytes", "uint64"), (5, "current_job_id", "string"),
        (6, "current_proof_kind", "string")],
    "SRSStatus": [
        (1, "circuit_id", "string"), (2, "tier", "SRSStatus.Tier"), (3, "size_bytes", "uint64"),
        (4, "ref_count", "uint32")],
    "QueueStatus": [
        (1, "proof_kind", "string"), (2, "pending", "uint32"), (3, "in_progress", "uint32")],
    "PreloadSrsRequest": [(1, "circuit_id", "string")],
    "PreloadSrsResponse": [(1, "already_loaded", "bool"), (2, "load_time_ms", "uint64")],
    "EvictSrsRequest": [(1, "circuit_id", "string")],
    "EvictSrsResponse": [(1, "was_loaded", "bool"), (2, "freed_bytes", "uint64")],
    "GetMetricsRequest": [],
    "GetMetricsResponse": [(1, "prometheus_text", "string")],
}

# cuzk's additions to the reference's messages, accepted explicitly: a field added to a
# reference message takes a number from ADDITION_MIN up (the reference may still add fields below
# it), a message of cuzk's own has a name the reference does not use.
ADDITION_MIN = 100
ADDED_FIELDS = {
    "AwaitProofResponse": [(100, "batch_wait_ms", "uint64")],
    "GetStatusResponse": [(100, "jobs", "repeated JobStatus"), (101, "build", "BuildInfo")],
}
ADDED_MESSAGES = {
    "JobStatus": [
        (1, "job_id", "string"), (2, "proof_kind", "string"), (3, "priority", "Priority"),
        (4, "stage", "string"), (5, "total_partitions", "uint32"),
        (6, "partitions_done", "uint32"), (7, "current_partition", "int32"),
        (8, "submitted_ms_ago", "uint64")],
    "BuildInfo": [
        (1, "version", "string"), (2, "commit", "string"), (3, "dirty", "bool"),
        (4, "compiler", "string"), (5, "adx", "bool"), (6, "ifma", "bool"), (7, "sha_ni", "bool")],
}


def with_additions():
    """The reference's table plus cuzk's additions, each checked to keep out of its way."""
    out = {name: list(fields) for name, fields in MESSAGES.items()}
    for name, fields in ADDED_FIELDS.items():
        check(name in MESSAGES, f"addition to {name}, not a reference message")
        for f in fields:
            check(f[0] >= ADDITION_MIN, f"{name}.{f[1]}: cuzk's field number {f[0]} < "
                  f"{ADDITION_MIN}")
        out[name] = out.get(name, []) + fields
    for name, fields in ADDED_MESSAGES.items():
        check(name not in MESSAGES, f"cuzk's message {name} has a reference name")
        out[name] = fields
    return out


SCALARS = {pbd.FieldDescriptor.TYPE_STRING: "string", pbd.FieldDescriptor.TYPE_BYTES: "bytes",
           pbd.FieldDescriptor.TYPE_UINT64: "uint64", pbd.FieldDescriptor.TYPE_UINT32: "uint32",
           pbd.FieldDescriptor.TYPE_BOOL: "bool", pbd.FieldDescriptor.TYPE_INT32: "int32"}

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def field_type(f):
    if f.type == pbd.FieldDescriptor.TYPE_MESSAGE:
        t = f.message_type.full_name
    elif f.type == pbd.FieldDescriptor.TYPE_ENUM:
        t = f.enum_type.full_name
    else:
        t = SCALARS.get(f.type, f"type#{f.type}")
    t = t.removeprefix("cuzk.v1.")
    return ("repeated " if f.label == pbd.FieldDescriptor.LABEL_REPEATED else "") + t


def check_descriptor(pb2):
    fd = pb2.DESCRIPTOR
    check(fd.name == "cuzk/v1/proving.proto", f"descriptor name {fd.name}")
    check(fd.package == "cuzk.v1", f"package {fd.package}")
    check(fd.syntax == "proto3", f"syntax {fd.syntax}")
    svc = fd.services_by_name.get("ProvingEngine")
    check(svc is not None and svc.full_name == "cuzk.v1.ProvingEngine", "service ProvingEngine")
    if svc:
        got = {m.name: (m.input_type.name, m.output_type.name) for m in svc.methods}
        check(got == METHODS, f"methods {got}")
        for m in svc.methods:
            check(not m.client_streaming and not m.server_streaming, f"{m.name} is not unary")

    def all_messages(msgs, prefix=""):
        for m in msgs:
            yield prefix + m.name, m
            yield from all_messages(m.nested_types, prefix + m.name + ".")

    messages = dict(all_messages(fd.message_types_by_name.values()))
    table = with_additions()
    check(sorted(messages) == sorted(table), f"message set {sorted(messages)}")
    for name, want in table.items():
        m = messages.get(name)
        if not m:
            continue
        got = sorted((f.number, f.name, field_type(f)) for f in m.fields)
        check(got == sorted(want), f"{name}: fields {got} != {sorted(want)}")
        check(not m.oneofs, f"{name} has oneofs")

    enums = {e.name: e for e in fd.enum_types_by_name.values()}
    for m in messages.values():
        for e in m.enum_types:
            enums[m.name + "." + e.name] = e
    check(sorted(enums) == sorted(ENUMS), f"enum set {sorted(enums)}")
    for name, want in ENUMS.items():
        if name in enums:
            got = {v.name: v.number for v in enums[name].values}
            check(got == want, f"enum {name}: {got}")
    print(f"descriptor: {len(messages)} messages, {len(enums)} enums, 8 methods checked")


# ---- calls against the C server ----------------------------------------------------------------

def check_calls(pb2, pb2_grpc, target):
    opts = [("grpc.max_receive_message_length", 256 << 20),
            ("grpc.max_send_message_length", 256 << 20)]
    with grpc.insecure_channel(target, options=opts) as ch:
        grpc.channel_ready_future(ch).result(timeout=10)
        stub = pb2_grpc.ProvingEngineStub(ch)
        T = 10

        req = pb2.SubmitProofRequest(
            request_id="wdpost-1000-0-[1 2 3]", proof_kind=pb2.WINDOW_POST_PARTITION,
            sector_size=34359738368, registered_proof=13, priority=pb2.HIGH,
            vanilla_proof=b"\x00{json}\xff", vanilla_proofs=[b"\x01\x02", b"", b"\xfe" * 3],
            sector_number=(1 << 64) - 1, miner_id=1000, randomness=bytes(range(32)),
            partition_index=4294967295, comm_r_old=b"\xaa" * 32, comm_r_new=b"\xbb" * 32,
            comm_d_new=b"\xcc" * 32)
        r = stub.Prove(pb2.ProveRequest(submit=req), timeout=T).result
        check(r.job_id == req.request_id, f"{target} Prove job_id {r.job_id!r}")
        check(r.status == pb2.AwaitProofResponse.COMPLETED, f"{target} Prove status {r.status}")
        check(r.proof == req.vanilla_proof, f"{target} Prove proof")
        check((r.queue_wait_ms, r.srs_load_ms, r.synthesis_ms, r.gpu_compute_ms, r.total_ms) ==
              (34359738368, 13, (1 << 64) - 1, 1000, 4294967295), f"{target} Prove numbers {r}")
        want = ("kind=3 prio=3 rand=" + bytes(range(32)).hex() + " r_old=" + "aa" * 32 +
                " r_new=" + "bb" * 32 + " d_new=" + "cc" * 32 + " vps=0102,,fefefe")
        check(r.error_message == want, f"{target} Prove decoded {r.error_message!r}")

        big = os.urandom(6 << 20)
        r = stub.Prove(pb2.ProveRequest(submit=pb2.SubmitProofRequest(
            request_id="big", vanilla_proof=big)), timeout=30).result
        check(r.proof == big and r.status == pb2.AwaitProofResponse.COMPLETED,
              f"{target} 6 MiB echo")

        try:
            stub.Prove(pb2.ProveRequest(), timeout=T)
            check(False, f"{target} Prove without submit succeeded")
        except grpc.RpcError as e:
            check(e.code() == grpc.StatusCode.INVALID_ARGUMENT and
                  e.details() == "missing submit field", f"{target} no submit: {e.code()}")

        s = stub.SubmitProof(pb2.SubmitProofRequest(request_id="porep-1-2", partition_index=9,
                                                    proof_kind=pb2.POREP_SEAL_COMMIT,
                                                    priority=pb2.CRITICAL), timeout=T)
        check((s.job_id, s.queue_position, s.assigned_gpu) == ("porep-1-2", 9, "kind=1 prio=4"),
              f"{target} SubmitProof {s}")

        a = stub.AwaitProof(pb2.AwaitProofRequest(job_id="j", timeout_ms=1 << 40), timeout=T)
        check((a.job_id, a.status, a.total_ms) ==
              ("j", pb2.AwaitProofResponse.TIMEOUT, 1 << 40), f"{target} AwaitProof {a}")

        c = stub.CancelProof(pb2.CancelProofRequest(job_id="running"), timeout=T)
        check(c.was_running, f"{target} CancelProof")
        c = stub.CancelProof(pb2.CancelProofRequest(job_id="idle"), timeout=T)
        check(not c.was_running, f"{target} CancelProof idle")

        st = stub.GetStatus(pb2.GetStatusRequest(), timeout=T)
        check([(g.ordinal, g.name, g.vram_total_bytes, g.vram_free_bytes, g.current_job_id,
                g.current_proof_kind) for g in st.gpus] ==
              [(0, "gpu-a", 25769803776, 1 << 30, "job-1", "porep-c2"), (1, "gpu-b", 0, 0, "", "")],
              f"{target} GetStatus gpus {st.gpus}")
        check([(x.circuit_id, x.tier, x.size_bytes, x.ref_count) for x in st.loaded_srs] ==
              [("porep-32g", pb2.SRSStatus.COLD, 1 << 35, 3)], f"{target} GetStatus srs")
        check([(q.proof_kind, q.pending, q.in_progress) for q in st.queues] ==
              [("window-post", 2, 1)], f"{target} GetStatus queues")
        check([(j.job_id, j.proof_kind, j.priority, j.stage, j.total_partitions,
                j.partitions_done, j.current_partition, j.submitted_ms_ago) for j in st.jobs] ==
              [("job-2", "porep-c2", pb2.HIGH, "proving", 10, 3, 4, (1 << 40) + 1),
               ("job-3", "winning-post", pb2.CRITICAL, "queued", 0, 0, -1, 0)],
              f"{target} GetStatus jobs {st.jobs}")
        check((st.total_proofs_completed, st.total_proofs_failed, st.uptime_seconds,
               st.pinned_memory_bytes, st.pinned_memory_limit_bytes) == (7, 8, 9, 10, 11),
              f"{target} GetStatus counters")

        m = stub.GetMetrics(pb2.GetMetricsRequest(), timeout=T)
        check(m.prometheus_text == "cuzk_up 1\n", f"{target} GetMetrics {m}")
        p = stub.PreloadSRS(pb2.PreloadSrsRequest(circuit_id="porep-32g"), timeout=T)
        check(p.already_loaded and p.load_time_ms == 9, f"{target} PreloadSRS {p}")
        p = stub.PreloadSRS(pb2.PreloadSrsRequest(circuit_id="snap-64g"), timeout=T)
        check(not p.already_loaded and p.load_time_ms == 8, f"{target} PreloadSRS snap {p}")
        ev = stub.EvictSRS(pb2.EvictSrsRequest(circuit_id="wpost-32g"), timeout=T)
        check(ev.was_loaded and ev.freed_bytes == 9000, f"{target} EvictSRS {ev}")

        unknown = ch.unary_unary("/cuzk.v1.ProvingEngine/Reflect")
        try:
            unknown(b"", timeout=T)
            check(False, f"{target} unknown method succeeded")
        except grpc.RpcError as e:
            check(e.code() == grpc.StatusCode.UNIMPLEMENTED, f"{target} unknown: {e.code()}")
    print(f"calls over {target}: done")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--proto-dir", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--server", required=True)
    args = ap.parse_args()

    os.makedirs(args.out, exist_ok=True)
    rc = protoc.main(["grpc_tools.protoc", f"-I{args.proto_dir}", f"--python_out={args.out}",
                      f"--grpc_python_out={args.out}",
                      os.path.join(args.proto_dir, "cuzk/v1/proving.proto")])
    if rc != 0:
        sys.exit(f"grpc_tools.protoc failed ({rc})")
    sys.path.insert(0, args.out)
    pb2 = importlib.import_module("cuzk.v1.proving_pb2")
    pb2_grpc = importlib.import_module("cuzk.v1.proving_pb2_grpc")
    check_descriptor(pb2)

    with tempfile.TemporaryDirectory(prefix="cuzk-wire-") as d:
        sock = os.path.join(d, "cuzk.sock")
        srv = subprocess.Popen([args.server, f"unix://{sock}", "127.0.0.1:0"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            ready = srv.stdout.readline().split()
            if not ready or ready[0] != "READY":
                sys.exit(f"server did not start: {ready}")
            check_calls(pb2, pb2_grpc, f"unix://{sock}")
            check_calls(pb2, pb2_grpc, f"127.0.0.1:{ready[2]}")
        finally:
            srv.stdin.close()
            try:
                code = srv.wait(timeout=20)
            except subprocess.TimeoutExpired:
                srv.kill()
                code = "timeout"
        check(code == 0, f"server exit {code}")
        check(not os.path.exists(sock), "socket file left after shutdown")

    print(f"test_proto_wire: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
