#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""TLS on the daemon's TCP listener (docs/config.md daemon.tls_*), with certificates made here by
openssl: a CA, a server certificate for 127.0.0.1, a client certificate, and a second CA.
  * a client with the right CA and client certificate gets GetStatus and proves a 2 KiB
    WinningPoSt (cuzk-bench gen-vanilla request, TEST parameters of --params);
  * refused: no client certificate, a server CA the client does not trust (wrong CA), a client
    certificate from another CA, and plaintext to the TLS port;
  * the unix socket beside it stays plaintext.
usage: test_tls.py --daemon D --bench B --params DIR --proto-dir P --out DIR
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import grpc
from google.protobuf import json_format

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_daemon import FAILS, Daemon, bench, check, stubs  # noqa: E402


def openssl(*args, cwd):
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


def make_certs(d):
    for ca in ("ca", "other-ca"):
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
                f"/CN=cuzk test {ca}", "-keyout", f"{ca}.key", "-out", f"{ca}.pem", cwd=d)
    with open(os.path.join(d, "san.ext"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    for name, ca in (("server", "ca"), ("client", "ca"), ("stranger", "other-ca")):
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", f"/CN={name}", "-keyout",
                f"{name}.key", "-out", f"{name}.csr", cwd=d)
        openssl("x509", "-req", "-in", f"{name}.csr", "-CA", f"{ca}.pem", "-CAkey", f"{ca}.key",
                "-CAcreateserial", "-days", "2", "-out", f"{name}.pem",
                *(["-extfile", "san.ext"] if name == "server" else []), cwd=d)


def main():
    ap = argparse.ArgumentParser()
    for k in ("--daemon", "--bench", "--params", "--proto-dir", "--out"):
        ap.add_argument(k, required=True)
    a = ap.parse_args()
    pb, pbg = stubs(a.proto_dir, a.out)
    work = tempfile.mkdtemp(prefix="cuzk-tls-")
    make_certs(work)
    pem = lambda n: open(os.path.join(work, n), "rb").read()  # noqa: E731
    sock = os.path.join(work, "cuzk.sock")
    d = Daemon(a.daemon, work, f"""
[daemon]
listen = ["unix://{sock}", "127.0.0.1:0"]
tls_cert = "{work}/server.pem"
tls_key = "{work}/server.key"
tls_client_ca = "{work}/ca.pem"
tls_require_client_cert = true
[srs]
param_cache = "{os.path.abspath(a.params)}"
generate_test_params = false
[synthesis]
threads = 2
""")
    check(d.tcp is not None and f"(port {d.tcp}), TLS" in d.text(), "the TLS listener is logged")
    target = f"127.0.0.1:{d.tcp}"

    def status(creds, timeout=5):
        ch = grpc.secure_channel(target, creds) if creds else grpc.insecure_channel(target)
        try:
            pbg.ProvingEngineStub(ch).GetStatus(pb.GetStatusRequest(), timeout=timeout)
            return True
        except grpc.RpcError:
            return False
        finally:
            ch.close()

    good = grpc.ssl_channel_credentials(pem("ca.pem"), pem("client.key"), pem("client.pem"))
    check(status(good), "GetStatus with the right CA and client certificate")
    check(not status(grpc.ssl_channel_credentials(pem("ca.pem"))), "refused: no client certificate")
    check(not status(grpc.ssl_channel_credentials(pem("other-ca.pem"), pem("client.key"),
                                                  pem("client.pem"))),
          "refused: the client does not trust the server's CA")
    check(not status(grpc.ssl_channel_credentials(pem("ca.pem"), pem("stranger.key"),
                                                  pem("stranger.pem"))),
          "refused: a client certificate from another CA")
    check(not status(None, timeout=3), "refused: plaintext to the TLS port")
    ch = grpc.insecure_channel(f"unix://{sock}")
    check(pbg.ProvingEngineStub(ch).GetStatus(pb.GetStatusRequest(), timeout=5) is not None,
          "the unix socket stays plaintext")
    ch.close()

    req = os.path.join(work, "win.json")
    r = bench(a.bench, "gen-vanilla", "winning-post", "--sector-size", "2KiB", "-o", req)
    if check(r.returncode == 0, f"gen-vanilla: {r.stderr}"):
        q = json_format.ParseDict(json.load(open(req)), pb.SubmitProofRequest())
        ch = grpc.secure_channel(target, good)
        res = pbg.ProvingEngineStub(ch).Prove(pb.ProveRequest(submit=q), timeout=300).result
        ch.close()
        if check(res.status == pb.AwaitProofResponse.COMPLETED and len(res.proof) == 192,
                 f"WinningPoSt over TLS: {res.status} {res.error_message}"):
            pf = os.path.join(work, "p.bin")
            open(pf, "wb").write(res.proof)
            v = bench(a.bench, "verify", "--request", req, "--param-cache", a.params, "--proof", pf)
            check(v.returncode == 0 and "partition 0: valid" in v.stdout, f"verify: {v.stdout}")
    d.p.terminate()
    d.p.wait(timeout=60)
    print(f"test_tls: {len(FAILS)} failures" if FAILS else "test_tls: ok", flush=True)
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
