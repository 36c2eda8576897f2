#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""cuzk-daemon's start-up checks of its configuration (docs/config.md "Checks at start"), on the
real program: each bad configuration makes it exit 2 before serving, with the message naming the
key on stderr; each good one starts (" ready" in its log) and stops on SIGTERM. Seconds, no
parameters needed.
  * TLS keys without the certificate/key pair, and the pair's halves alone;
  * plaintext TCP beyond loopback, from daemon.listen and from -l, refused; loopback, a unix
    socket, daemon.allow_plaintext = true (then a warning in the log) accepted;
  * scheduler.max_queued_bytes below the smallest WinningPoSt, an unknown srs.preload id and
    scheduler.max_batch_wait_ms over 10000 refused;
  * srs.generate_test_params is off by default: a 2 KiB WinningPoSt (`cuzk-bench gen-vanilla`,
    `cuzk-bench single`) against an empty parameter directory fails at once naming the file
    expected, and nothing is generated there;
  * synthetic inputs (`cuzk-bench gen-vanilla ... --synthetic`: a PoRep C1, a SnapDeals update, a
    WinningPoSt over a synthetic replica) refused by default naming daemon.allow_synthetic_inputs,
    and accepted with it on (the job then gets as far as its missing parameters).
usage: test_daemon_start.py --daemon D --bench B
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print(f"FAIL: {what}", flush=True)
    return cond


class Run:
    def __init__(self, exe, work):
        self.exe, self.work = exe, work
        self.n = 0

    def config(self, text):
        self.n += 1
        path = os.path.join(self.work, f"c{self.n}.toml")
        with open(path, "w") as f:
            f.write(text)
        return path

    def refused(self, text, want, *args, prefix=False):
        """The daemon with this configuration (and extra arguments) exits 2, want on stderr (with
        prefix, stderr starts with it); returns stderr."""
        cfg = self.config(text)
        r = subprocess.run([self.exe, "-c", cfg, *args], capture_output=True, text=True,
                           cwd=self.work, timeout=60)
        got = r.stderr.startswith(f"cuzk-daemon: {want}") if prefix else \
            f"cuzk-daemon: {want}\n" == r.stderr
        check(r.returncode == 2 and got,
              f"refused: {want!r}\n  rc {r.returncode}, stderr {r.stderr!r}")
        return r.stderr

    def spawn(self, text, *args):
        """The daemon started on this configuration: (process, log path), once " ready" or gone."""
        cfg = self.config(text)
        log = os.path.join(self.work, f"c{self.n}.log")
        with open(log, "w") as lf:
            p = subprocess.Popen([self.exe, "-c", cfg, *args], stdout=lf, stderr=lf, cwd=self.work)
        for _ in range(400):
            if " ready" in open(log).read() or p.poll() is not None:
                break
            time.sleep(0.05)
        return p, log

    def stop(self, p, log):
        """SIGTERM; checks it had started and exits 0; returns its log."""
        if p.poll() is None:
            p.terminate()
        rc = p.wait(timeout=60)
        text = open(log).read()
        check(" ready" in text and rc == 0, f"starts: {log}: rc {rc}\n{text}")
        return text

    def starts(self, text, *args):
        """The daemon starts ("ready") and stops cleanly on SIGTERM; returns its log."""
        return self.stop(*self.spawn(text, *args))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--daemon", required=True)
    ap.add_argument("--bench", required=True)
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="cuzk-start-")
    run = Run(os.path.abspath(a.daemon), work)
    sock = os.path.join(work, "cuzk.sock")
    base = f'[daemon]\nlisten = ["unix://{sock}", "127.0.0.1:0"]\n'
    src = lambda n: os.path.join(work, f"c{n}.toml")  # noqa: E731  the file refused() writes next

    # TLS keys as a whole: each named, nothing served
    for extra, msg in (
            ('tls_client_ca = "/etc/ca.pem"\ntls_require_client_cert = true\n',
             "daemon.tls_client_ca: set without daemon.tls_cert and daemon.tls_key (client "
             "certificates are checked only over TLS)"),
            ('tls_require_client_cert = true\n',
             "daemon.tls_require_client_cert: true without daemon.tls_cert and daemon.tls_key "
             "(client certificates are checked only over TLS)"),
            ('tls_key = "/etc/k.pem"\n',
             "daemon.tls_key: set without daemon.tls_cert (TLS needs the certificate too)"),
            ('tls_cert = "/etc/c.pem"\n',
             "daemon.tls_cert: set without daemon.tls_key (TLS needs the certificate's private "
             "key too)")):
        run.refused(base + extra, f"{src(run.n + 1)}: {msg}")

    # plaintext beyond loopback
    plain = ("is not a loopback address and TLS is off: set daemon.tls_cert and daemon.tls_key, "
             "or daemon.allow_plaintext = true")
    run.refused(f'[daemon]\nlisten = ["unix://{sock}", "0.0.0.0:0"]\n',
                f'daemon.listen: "0.0.0.0:0" {plain}')
    run.refused(base, f'--listen: "[::]:0" {plain}', "-l", f"unix://{sock}", "-l", "[::]:0")
    text = run.starts(f'[daemon]\nlisten = ["unix://{sock}", "0.0.0.0:0"]\n'
                      'allow_plaintext = true\n')
    check("0.0.0.0:0: plaintext gRPC on a non-loopback address (daemon.allow_plaintext)" in text,
          "allow_plaintext: the listener is warned about")
    text = run.starts(base, "-l", "[::1]:0", "-l", f"unix://{sock}")
    check("plaintext" not in text, "loopback and a unix socket: no warning")

    # single keys checked against the engine
    # the floor is the engine's charge for one 2 KiB sector's 36816-byte vanilla proof (its
    # lengths and job record added: test_config pins the figure)
    text = run.refused(base + '[scheduler]\nmax_queued_bytes = "16KiB"\n',
                       f"{src(run.n + 1)}: scheduler.max_queued_bytes: 16384 bytes is less than "
                       "the smallest request, a 2 KiB WinningPoSt (", prefix=True)
    m = re.search(r"a 2 KiB WinningPoSt \((\d+) bytes\): every WinningPoSt would be refused "
                  r"\(line 4\)", text or "")
    check(m is not None and 36816 + 9 <= int(m.group(1)) < 36816 + 8192,
          f"max_queued_bytes floor in: {text}")
    run.refused(base + '[srs]\npreload = ["winning-2k", "winning-1t"]\n',
                f'{src(run.n + 1)}: srs.preload: unknown parameter set id "winning-1t" (an id is '
                "KIND-SIZE, KIND one of porep, snap, wpost, winning, SIZE one of 2k, 8m, 512m, 32g, "
                "64g) (line 4)")
    run.refused(base + '[scheduler]\nmax_batch_wait_ms = 3600000\n',
                f"{src(run.n + 1)}: scheduler.max_batch_wait_ms: must be between 0 and 10000, got "
                "3600000 (line 4)")

    # generate_test_params off by default: a missing parameter set fails the job at once
    empty = os.path.join(work, "params")
    os.mkdir(empty)
    req = os.path.join(work, "win.json")
    r = subprocess.run([a.bench, "gen-vanilla", "winning-post", "--sector-size", "2KiB", "-o", req],
                       capture_output=True, text=True, timeout=120)
    if check(r.returncode == 0, f"gen-vanilla: {r.stderr}"):
        p, log = run.spawn(f'[daemon]\nlisten = "unix://{sock}"\n[srs]\nparam_cache = "{empty}"\n')
        t0 = time.time()
        r = subprocess.run([a.bench, "single", "--request", req, "-a", f"unix://{sock}"],
                           capture_output=True, text=True, timeout=120)
        took = time.time() - t0
        run.stop(p, log)
        want = (f"error:     winning-2k: parameter file {empty}/v28-proof-of-spacetime-fallback-"
                "merkletree-poseidon_hasher-8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d"
                "3650bca3e8ea9e.params (or .vk) not found\n")
        check(r.returncode != 0 and "status:    FAILED\n" in r.stdout and want in r.stdout,
              f"missing parameters: the job fails naming the file: {r.stdout} {r.stderr}")
        check(took < 10, f"missing parameters: failed at once ({took:.1f} s)")
        check(os.listdir(empty) == [], f"nothing generated: {os.listdir(empty)}")

    # synthetic inputs: refused by default, accepted (prepared; then no parameters) when allowed
    syn = [("porep", ["porep"], ["-t", "porep", "--c1"], "porep-2k"),
           ("snap", ["snap"], ["--request"], "snap-2k"),
           ("winning", ["winning-post"], ["--request"], "winning-2k")]
    made = []
    for name, kind, how, circuit in syn:
        out = os.path.join(work, f"syn-{name}.json")
        r = subprocess.run([a.bench, "gen-vanilla", *kind, "--sector-size", "2KiB", "--synthetic",
                            "-o", out], capture_output=True, text=True, timeout=120)
        if check(r.returncode == 0, f"gen-vanilla {name} --synthetic: {r.stderr}"):
            made.append((name, how + [out], circuit))
    for allow in (False, True):
        cfg = f'[daemon]\nlisten = "unix://{sock}"\n'
        if allow:
            cfg += "allow_synthetic_inputs = true\n"
        p, log = run.spawn(cfg + f'[srs]\nparam_cache = "{empty}"\n')
        for name, args, circuit in made:
            r = subprocess.run([a.bench, "single", *args, "-a", f"unix://{sock}"],
                               capture_output=True, text=True, timeout=120)
            refused = ("a synthetic input (made by cuzk-bench gen-vanilla --synthetic, no stored "
                       "data behind it: its proof would prove nothing about a sector); refused "
                       "because daemon.allow_synthetic_inputs is off (docs/config.md)")
            missing = f"error:     {circuit}: parameter file {empty}/"
            if allow:
                check(r.returncode != 0 and missing in r.stdout and refused not in r.stdout,
                      f"synthetic {name} allowed: prepared, then no parameters: {r.stdout}")
            else:
                check(r.returncode != 0 and "status:    FAILED\n" in r.stdout and
                      refused in r.stdout, f"synthetic {name} refused by default: {r.stdout}")
        run.stop(p, log)

    print(f"test_daemon_start: {len(FAILS)} failures" if FAILS else "test_daemon_start: ok",
          flush=True)
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
