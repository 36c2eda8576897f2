#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""The Debian packages and the install rules end to end (docs/deployment.md; docs/testing.md
"The package test"), on a built tree:
  1. CPack builds cuzk and libcuzk-dev from the tree (as scripts/package does);
  2. their control fields: names, version, architecture, the Depends dpkg-shlibdeps found for
     every library the programs link plus adduser, the conffile, the maintainer scripts
     (executable, valid sh);
  3. their file lists: every file expected, nothing outside the expected places, every doc;
  4. both unpacked into a scratch root (dpkg -x): the unit passes `systemd-analyze verify` (its
     ExecStart pointed at the unpacked program; skipped, saying so, without systemd-analyze);
     the unpacked cuzk-daemon and cuzk-bench print the build's --version line;
  5. the unpacked cuzk-daemon runs on the unpacked /etc/cuzk/cuzk.toml, its three paths moved
     into the scratch root (socket, parameters: the shared 2 KiB TEST parameters, status port),
     and proves the 2 KiB demo sector (scripts/run: `gen-vanilla porep --data random:1`,
     `single`) through the unpacked cuzk-bench; the proof verifies; `status` shows the build
     (GetStatus) and `metrics` cuzk_build_info; SIGTERM ends it with 0;
  6. a program built against the unpacked libcuzk-dev with pkg-config's flags alone runs;
  7. `cmake --install BUILD --prefix P` puts the configuration, the unit and the parameter
     directory under P.
usage: test_package.py --build BUILD --source ROOT --params DIR --version V --cmake CMAKE
                       --cpack CPACK
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

FAILS = []
T0 = time.monotonic()


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print(f"FAIL: {what}", flush=True)
    return cond


def step(what):
    print(f"[{time.monotonic() - T0:5.1f} s] {what}", flush=True)


def run(*cmd, **kw):
    r = subprocess.run(list(cmd), capture_output=True, text=True, timeout=kw.pop("timeout", 300),
                       **kw)
    if r.returncode:
        sys.exit(f"test_package: {' '.join(cmd)} exited {r.returncode}:\n{r.stdout}{r.stderr}")
    return r.stdout


def control(deb):
    fields, key = {}, None
    for line in run("dpkg-deb", "-f", deb).splitlines():
        if line.startswith(" ") and key:
            fields[key] += "\n" + line[1:]
        else:
            key, _, value = line.partition(": ")
            fields[key] = value
    return fields


def files(deb):
    """{path: mode string} of a package's data, paths as '/etc/cuzk/cuzk.toml', dirs with '/'."""
    out = {}
    for line in run("dpkg-deb", "-c", deb).splitlines():
        parts = line.split(maxsplit=5)
        out[parts[5][1:]] = parts[0]
    return out


def check_runtime_package(deb, a, arch):
    c = control(deb)
    check(c.get("Package") == "cuzk" and c.get("Version") == a.version and
          c.get("Architecture") == arch, f"cuzk control: {c}")
    check(c.get("Section") == "misc" and c.get("Maintainer") and
          c.get("Description", "").startswith("Groth16 proving engine for Filecoin\n"),
          f"cuzk control: section, maintainer, description: {c}")
    depends = {d.split()[0] for d in c.get("Depends", "").split(", ")}
    # the Debian packages of what the programs link (dpkg-shlibdeps) and adduser for postinst
    for want in ("adduser", "libc6", "libgrpc", "libprotobuf-c", "libsodium", "libyajl",
                 "libmicrohttpd", "libssl"):
        check(any(d.startswith(want) for d in depends), f"cuzk Depends lacks {want}: {depends}")
    ctl = tempfile.mkdtemp(prefix="ctl-", dir=a.work)
    run("dpkg-deb", "-e", deb, ctl)
    check(open(os.path.join(ctl, "conffiles")).read() == "/etc/cuzk/cuzk.toml\n",
          "conffiles: exactly /etc/cuzk/cuzk.toml")
    for s in ("postinst", "prerm", "postrm"):
        p = os.path.join(ctl, s)
        ok = os.path.isfile(p) and os.access(p, os.X_OK)
        check(ok and subprocess.run(["sh", "-n", p]).returncode == 0,
              f"maintainer script {s}: present, executable, valid sh")
    check("adduser --quiet --system --group" in open(os.path.join(ctl, "postinst")).read() and
          "deb-systemd-helper enable cuzk.service" in open(os.path.join(ctl, "postinst")).read(),
          "postinst makes the user and enables (does not start) the unit")

    f = files(deb)
    want = {"/usr/bin/cuzk-daemon": "-rwxr-xr-x", "/usr/bin/cuzk-bench": "-rwxr-xr-x",
            "/etc/cuzk/cuzk.toml": "-rw-r--r--",
            "/usr/lib/systemd/system/cuzk.service": "-rw-r--r--",
            "/usr/share/cuzk/grafana/cuzk.json": "-rw-r--r--",
            "/usr/share/doc/cuzk/cuzk.example.toml": "-rw-r--r--",
            "/usr/share/doc/cuzk/LICENSE": "-rw-r--r--",
            "/var/lib/cuzk/params/": "drwxr-xr-x"}
    for path, mode in want.items():
        check(f.get(path) == mode, f"cuzk: {path} {f.get(path)}, expected {mode}")
    for doc in os.listdir(os.path.join(a.source, "docs")):
        if doc.endswith(".md"):
            check(f"/usr/share/doc/cuzk/{doc}" in f, f"cuzk: docs/{doc} not in /usr/share/doc/cuzk")
    places = ("/usr/bin/", "/etc/cuzk/", "/usr/lib/systemd/system/", "/usr/share/cuzk/",
              "/usr/share/doc/cuzk/", "/var/lib/cuzk/")
    for path in f:
        check(path.endswith("/") and any(p.startswith(path) for p in places) or
              path.startswith(places), f"cuzk: {path} outside the package's places")


def check_dev_package(deb, a, arch):
    c = control(deb)
    check(c.get("Package") == "libcuzk-dev" and c.get("Version") == a.version and
          c.get("Architecture") == arch and c.get("Section") == "libdevel" and
          c.get("Depends") == "libsodium-dev, libyajl-dev", f"libcuzk-dev control: {c}")
    f = files(deb)
    top = os.path.join(a.source, "include", "cuzk")
    headers = {os.path.relpath(os.path.join(d, h), top).replace(os.sep, "/")
               for d, _, hs in os.walk(top) for h in hs}
    # the daemon's headers (the server layer's folder) stay out: their libraries are not installed
    want = {f"/usr/include/cuzk/{h}" for h in headers if not h.startswith("server/")}
    want |= {"/usr/lib/libcuzk.a", "/usr/lib/pkgconfig/cuzk.pc"}
    got = {p for p in f if not p.endswith("/")}
    check(got == want, f"libcuzk-dev files: extra {sorted(got - want)}, missing {sorted(want - got)}")


def verify_unit(root, work):
    exe = shutil.which("systemd-analyze")
    if not exe:
        print("systemd-analyze verify: SKIPPED, systemd-analyze is not installed (Debian package "
              "systemd; scripts/install-deps installs it)", flush=True)
        return
    # verify looks for ExecStart's program on this machine: point it at the unpacked one
    unit = open(os.path.join(root, "usr/lib/systemd/system/cuzk.service")).read()
    check(unit.count("ExecStart=/usr/bin/cuzk-daemon -c /etc/cuzk/cuzk.toml\n") == 1,
          "the unit's ExecStart")
    d = tempfile.mkdtemp(prefix="unit-", dir=work)
    with open(os.path.join(d, "cuzk.service"), "w") as f:
        f.write(unit.replace("/usr/bin/cuzk-daemon", os.path.join(root, "usr/bin/cuzk-daemon")))
    r = subprocess.run([exe, "verify", os.path.join(d, "cuzk.service")], capture_output=True,
                       text=True, timeout=60)
    # systemd-analyze exits 0 on an unknown key or a bad value and only says so: both must be quiet
    check(r.returncode == 0 and r.stdout + r.stderr == "",
          f"systemd-analyze verify: rc {r.returncode}\n{r.stdout}{r.stderr}")


def prove_demo(root, a, line):
    daemon = os.path.join(root, "usr/bin/cuzk-daemon")
    bench = os.path.join(root, "usr/bin/cuzk-bench")
    cfg = open(os.path.join(root, "etc/cuzk/cuzk.toml")).read()
    moves = {'listen = "unix:///run/cuzk/cuzk.sock"': f'listen = "unix://{root}/run/cuzk/cuzk.sock"',
             'param_cache = "/var/lib/cuzk/params"': f'param_cache = "{a.params}"',
             'status_listen = "127.0.0.1:9821"': 'status_listen = "127.0.0.1:0"'}
    for old, new in moves.items():
        check(cfg.count(old) == 1, f"the installed configuration has {old!r} once")
        cfg = cfg.replace(old, new)
    os.makedirs(os.path.join(root, "run/cuzk"))  # the unit's RuntimeDirectory
    cfg_path = os.path.join(root, "etc/cuzk/cuzk.toml")
    with open(cfg_path, "w") as f:
        f.write(cfg)
    sock = f"unix://{root}/run/cuzk/cuzk.sock"
    log = os.path.join(a.work, "daemon.log")
    with open(log, "w") as lf:
        p = subprocess.Popen([daemon, "-c", cfg_path], stdout=lf, stderr=lf, cwd=a.work)
    try:
        for _ in range(600):
            text = open(log).read()
            if " ready" in text or p.poll() is not None:
                break
            time.sleep(0.05)
        if not check(" ready" in text, f"the installed daemon did not start:\n{text}"):
            return
        check(text.splitlines()[0].endswith(f"cuzk-daemon {line}"), "the daemon's first log line")
        step("the installed daemon runs; sealing the 2 KiB demo sector")
        c1 = os.path.join(a.work, "c1.json")
        proof = os.path.join(a.work, "proof.bin")
        run(bench, "gen-vanilla", "porep", "--sector-size", "2KiB", "--data", "random:1",
            "-q", "-o", c1)
        step("proving it through the installed daemon")
        out = run(bench, "single", "-a", sock, "-t", "porep", "--c1", c1, "--miner-id", "1000",
                  "--sector-num", "1", "-o", proof)
        check("status:    COMPLETED" in out and os.path.getsize(proof) > 0, f"single:\n{out}")
        st = run(bench, "status", "-a", sock)
        check(f"\nbuild:            {line}\n" in st and "proofs completed: 1\n" in st,
              f"status:\n{st}")
        mt = run(bench, "metrics", "-a", sock)
        check(re.search(r'^cuzk_build_info\{version="[^"]+",commit="[^"]+",compiler="[^"]+",'
                        r'kernels="[^"]+"\} 1$', mt, re.M), "metrics: cuzk_build_info")
    finally:
        if p.poll() is None:
            p.terminate()
        check(p.wait(timeout=120) == 0, f"the daemon's exit on SIGTERM:\n{open(log).read()}")
    step("verifying the proof")
    run(bench, "verify", "--c1", c1, "--param-cache", a.params, "--proof", proof)


def main():
    ap = argparse.ArgumentParser()
    for o in ("--build", "--source", "--params", "--version", "--cmake", "--cpack"):
        ap.add_argument(o, required=True)
    a = ap.parse_args()
    a.work = tempfile.mkdtemp(prefix="cuzk-package-")
    try:
        arch = run("dpkg", "--print-architecture").strip()
        step("building the packages (CPack)")
        out = os.path.join(a.work, "dist")
        run(a.cpack, "--config", os.path.join(a.build, "CPackConfig.cmake"), "-B", out)
        runtime = os.path.join(out, f"cuzk_{a.version}_{arch}.deb")
        dev = os.path.join(out, f"libcuzk-dev_{a.version}_{arch}.deb")
        check_runtime_package(runtime, a, arch)
        check_dev_package(dev, a, arch)

        step("unpacking both into a scratch root")
        root = os.path.join(a.work, "root")
        run("dpkg", "-x", runtime, root)
        run("dpkg", "-x", dev, root)
        verify_unit(root, a.work)
        line = run(os.path.join(a.build, "tools/cuzk-daemon"), "--version")
        line = line[len("cuzk-daemon "):].rstrip("\n")
        for prog in ("cuzk-daemon", "cuzk-bench"):
            got = run(os.path.join(root, "usr/bin", prog), "--version")
            check(got == f"{prog} {line}\n", f"installed {prog} --version: {got!r}")
        prove_demo(root, a, line)

        step("a program against the installed libcuzk-dev (pkg-config)")
        env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(root, "usr/lib/pkgconfig"))
        flags = run("pkg-config", "--cflags", "--libs", "cuzk", env=env).split()
        exe = os.path.join(a.work, "link_check")
        run(os.environ.get("CC", "cc"), "-std=c17", "-Wall", "-Werror", "-o", exe,
            os.path.join(a.source, "tests/package/link_check.c"), *flags)
        check(run(exe) == "link_check: ok\n", "link_check")

        step("cmake --install --prefix")
        prefix = os.path.join(a.work, "prefix")
        run(a.cmake, "--install", a.build, "--prefix", prefix)
        for path in ("bin/cuzk-daemon", "etc/cuzk/cuzk.toml", "lib/systemd/system/cuzk.service",
                     "var/lib/cuzk/params", "lib/libcuzk.a", "lib/pkgconfig/cuzk.pc",
                     "share/doc/cuzk/deployment.md"):
            check(os.path.exists(os.path.join(prefix, path)), f"--prefix: {path} missing")
    finally:
        shutil.rmtree(a.work, ignore_errors=True)
    step(f"test_package: {'FAILED' if FAILS else 'ok'}")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
