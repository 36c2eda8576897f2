#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""TLS on the daemon's TCP listener (docs/config.md daemon.tls_*), with certificates made here by
openssl: a CA, a server certificate for 127.0.0.1, a client certificate, and a second CA.
  * a client with the right CA and client certificate gets GetStatus and proves a 2 KiB
    WinningPoSt (cuzk-bench gen-vanilla request, TEST parameters of --params);
  * refused: no client certificate, a server CA the client does not trust (wrong CA), a client
    certificate from another CA, and plaintext to the TLS port;
  * the unix socket beside it stays plaintext;
  * bad files fail the start naming the option, the file and the fault (docs/config.md "Checks at
    start"), not as "cannot listen": a key of another certificate, junk as certificate, key or
    client CA, a key file given as the certificate, a certificate block that does not parse, an
    encrypted key, a missing file.
usage: test_tls.py --daemon D --bench B --params DIR --proto-dir P --out DIR
"""
import argparse
import json
import os
import shutil
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
    openssl("genrsa", "-aes128", "-passout", "pass:secret", "-out", "encrypted.key", "2048", cwd=d)
    with open(os.path.join(d, "junk.pem"), "w") as f:
        f.write("this is not PEM\n")
    with open(os.path.join(d, "broken.pem"), "w") as f:
        f.write("-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n")


def bad_files(daemon, work):
    """Each bad TLS file: the daemon exits 1 before serving, naming the option, file and fault."""
    sock = os.path.join(work, "bad.sock")
    w = lambda n: os.path.join(work, n)  # noqa: E731
    cases = [
        ("server.pem", "client.key", None,
         f"tls_key '{w('client.key')}' does not match tls_cert '{w('server.pem')}'"),
        ("junk.pem", "server.key", None, f"tls_cert '{w('junk.pem')}': not a PEM certificate"),
        ("server.key", "server.key", None, f"tls_cert '{w('server.key')}': not a PEM certificate"),
        ("broken.pem", "server.key", None,
         f"tls_cert '{w('broken.pem')}': certificate 1 of the file does not parse (not a PEM "
         "certificate)"),
        ("server.pem", "junk.pem", None, f"tls_key '{w('junk.pem')}': not a PEM private key"),
        ("server.pem", "encrypted.key", None,
         f"tls_key '{w('encrypted.key')}': an encrypted private key (the daemon cannot ask for a "
         "passphrase: give it unencrypted, readable by the daemon's user only)"),
        ("server.pem", "server.key", "junk.pem",
         f"tls_client_ca '{w('junk.pem')}': not a PEM certificate"),
        ("server.pem", "server.key", "missing.pem",
         f"tls_client_ca '{w('missing.pem')}': cannot read it: No such file or directory"),
    ]
    for cert, key, ca, want in cases:
        cfg = w("bad.toml")
        with open(cfg, "w") as f:
            f.write(f'[daemon]\nlisten = ["unix://{sock}", "127.0.0.1:0"]\n'
                    f'tls_cert = "{w(cert)}"\ntls_key = "{w(key)}"\n'
                    + (f'tls_client_ca = "{w(ca)}"\n' if ca else ""))
        r = subprocess.run([daemon, "-c", cfg], capture_output=True, text=True, timeout=60)
        check(r.returncode == 1 and f" ERROR cannot serve: {want}\n" in r.stderr and
              "listening" not in r.stderr, f"refused: {want}\n  rc {r.returncode}: {r.stderr}")


def main():
    ap = argparse.ArgumentParser()
    for k in ("--daemon", "--bench", "--params", "--proto-dir", "--out"):
        ap.add_argument(k, required=True)
    a = ap.parse_args()
    pb, pbg = stubs(a.proto_dir, a.out)
    work = tempfile.mkdtemp(prefix="cuzk-tls-")
    make_certs(work)
    bad_files(a.daemon, work)
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
    if not FAILS:  # kept on a failure: the daemon's log is there
        shutil.rmtree(work, ignore_errors=True)
    print(f"test_tls: {len(FAILS)} failures (files in {work})" if FAILS else "test_tls: ok",
          flush=True)
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
