#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""How long a running job takes to end after CancelProof (issue #8's cancellation).

Submits one PoRep job at a time to a running cuzk-daemon, cancels it DELAY seconds after the
submission (while it is being synthesized or proven) and prints how long AwaitProof took to
answer CANCELLED after the CancelProof call returned.

usage: bench/cancel_latency.py ADDR C1 DELAY... [--miner-id N --sector-num N]
  ADDR   the daemon's gRPC address (unix:///abs/path or host:port)
  C1     a C1 output its parameters are loaded for (preload first: cuzk-bench preload)
Needs Debian's python3-grpcio and python3-grpc-tools (the stubs are generated from
proto/cuzk/v1/proving.proto into a temporary directory).
"""
import argparse
import os
import sys
import tempfile
import time

import grpc
from grpc_tools import protoc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("addr")
    ap.add_argument("c1")
    ap.add_argument("delays", type=float, nargs="+")
    ap.add_argument("--miner-id", type=int, default=1000)
    ap.add_argument("--sector-num", type=int, default=1)
    a = ap.parse_args()
    proto = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "proto")
    with tempfile.TemporaryDirectory() as out:
        if protoc.main(["protoc", f"-I{proto}", f"--python_out={out}", f"--grpc_python_out={out}",
                        os.path.join(proto, "cuzk/v1/proving.proto")]):
            sys.exit("protoc failed")
        sys.path.insert(0, out)
        from cuzk.v1 import proving_pb2 as pb, proving_pb2_grpc as rpc
        stub = rpc.ProvingEngineStub(grpc.insecure_channel(a.addr))
        c1 = open(a.c1, "rb").read()
        for d in a.delays:
            job = stub.SubmitProof(pb.SubmitProofRequest(
                proof_kind=pb.POREP_SEAL_COMMIT, vanilla_proof=c1, miner_id=a.miner_id,
                sector_number=a.sector_num)).job_id
            time.sleep(d)
            t0 = time.monotonic()
            was = stub.CancelProof(pb.CancelProofRequest(job_id=job)).was_running
            res = stub.AwaitProof(pb.AwaitProofRequest(job_id=job))
            status = pb.AwaitProofResponse.Status.Name(res.status)
            print(f"cancel {d:.1f} s after submit (running: {was}): {status} "
                  f"{1000 * (time.monotonic() - t0):.0f} ms later", flush=True)


if __name__ == "__main__":
    main()
