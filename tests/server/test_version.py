#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""What a build says it is (include/cuzk/server/version.h, docs/deployment.md "Which build
answers"), on the real programs, in each of its four places:
  * `cuzk-daemon --version` and `cuzk-bench --version`: one line each, parsed; the same text after
    the program's name; the version CMake has, the commit of the build's build_id.c, and that
    one the commit git has now (with -dirty exactly when git sees tracked changes) unless the
    tree changed since the build (then the test says so: rebuild to check it), the compiler CMake
    used, and the kernels this machine should get under the environment (/proc/cpuinfo's
    adx+bmi2, avx512f+avx512ifma, sha_ni; none with CUZK_FORCE_PORTABLE, no ifma with
    CUZK_NO_IFMA);
  * the daemon's first log line;
  * GetStatus's `build` field, through `cuzk-bench status`;
  * the cuzk_build_info metric on /metrics and through GetMetrics: one series, value 1, its
    labels the parsed parts.
A second or two, no parameters needed.
usage: test_version.py --daemon D --bench B --version V --compiler "gcc 12.2.0" --source ROOT
                       --build-id BUILD/src/server/build_id.c
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

FAILS = []

LINE = re.compile(r"^(\d+\.\d+\.\d+) \(commit ([0-9a-f]{12}|unknown)(-dirty)?, "
                  r"((?:gcc|clang) \d+\.\d+\.\d+), kernels ([a-z,-]+)\)$")


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print(f"FAIL: {what}", flush=True)
    return cond


def flag(name):
    v = os.environ.get(name, "")
    return v not in ("", "0")


def expected_kernels():
    flags = set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    break
    except OSError:
        pass
    if flag("CUZK_FORCE_PORTABLE"):
        return "portable"
    k = []
    if {"adx", "bmi2"} <= flags:
        k.append("adx")
    if {"avx512f", "avx512ifma"} <= flags and not flag("CUZK_NO_IFMA"):
        k.append("ifma")
    if "sha_ni" in flags:
        k.append("sha-ni")
    return ",".join(k) or "portable"


def expected_commit(root):
    """(commit, dirty) as git sees the source now, or None without git or a checkout."""
    git = shutil.which("git")
    if not git:
        return None
    r = subprocess.run([git, "-C", root, "rev-parse", "--short=12", "HEAD"], capture_output=True,
                       text=True)
    if r.returncode:
        return None
    s = subprocess.run([git, "-C", root, "status", "--porcelain", "--untracked-files=no"],
                       capture_output=True, text=True)
    return r.stdout.strip(), s.returncode != 0 or s.stdout != ""


def version_line(exe, name, a):
    r = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30)
    check(r.returncode == 0 and r.stderr == "", f"{name} --version: rc {r.returncode}, "
          f"stderr {r.stderr!r}")
    out = r.stdout
    check(out.count("\n") == 1 and out.startswith(f"{name} "), f"{name} --version: {out!r}")
    line = out[len(name) + 1:].rstrip("\n")
    m = LINE.match(line)
    if not check(m, f"{name} --version: {line!r} does not parse"):
        return line
    version, commit, dirty, compiler, kernels = m.groups()
    check(version == a.version, f"{name}: version {version}, CMake has {a.version}")
    check(compiler == a.compiler, f"{name}: compiler {compiler!r}, CMake used {a.compiler!r}")
    want = expected_kernels()
    check(kernels == want, f"{name}: kernels {kernels}, this machine and environment: {want}")
    text = open(a.build_id).read()
    built = (re.search(r'cuzk_build_id_commit\[\] = "([0-9a-f]*)"', text).group(1) or "unknown",
             "cuzk_build_id_dirty = true" in text)
    check((commit, dirty is not None) == built, f"{name}: commit {commit}{dirty or ''}, the "
          f"build's build_id.c has {built}")
    git = expected_commit(a.source)
    if git and git != built:
        print(f"{name}: the source changed since the build (git {git}, built {built}): the "
              "commit against git is checked after a rebuild", flush=True)
    elif git:
        check((commit, dirty is not None) == git, f"{name}: commit {commit}{dirty or ''}, git "
              f"has {git}")
    return line


def main():
    ap = argparse.ArgumentParser()
    for o in ("--daemon", "--bench", "--version", "--compiler", "--source", "--build-id"):
        ap.add_argument(o, required=True)
    a = ap.parse_args()
    daemon, bench = os.path.abspath(a.daemon), os.path.abspath(a.bench)

    line = version_line(daemon, "cuzk-daemon", a)
    check(version_line(bench, "cuzk-bench", a) == line, "the programs' lines differ")
    m = LINE.match(line)
    labels = {"version": m.group(1), "commit": m.group(2) + (m.group(3) or ""),
              "compiler": m.group(4), "kernels": m.group(5)} if m else {}

    work = tempfile.mkdtemp(prefix="cuzk-version-")
    sock = os.path.join(work, "cuzk.sock")
    cfg = os.path.join(work, "cuzk.toml")
    with open(cfg, "w") as f:
        f.write(f'[daemon]\nlisten = ["unix://{sock}"]\nstatus_listen = "127.0.0.1:0"\n'
                f'[srs]\nparam_cache = "{work}"\n[synthesis]\nthreads = 1\n')
    log = os.path.join(work, "daemon.log")
    with open(log, "w") as lf:
        p = subprocess.Popen([daemon, "-c", cfg], stdout=lf, stderr=lf, cwd=work)
    try:
        for _ in range(600):
            text = open(log).read()
            if " ready" in text or p.poll() is not None:
                break
            time.sleep(0.05)
        if not check(" ready" in text, f"the daemon did not start:\n{text}"):
            return 1
        first = text.splitlines()[0]
        check(first.endswith(f"cuzk-daemon {line}"), f"first log line {first!r}")

        st = subprocess.run([bench, "status", "-a", f"unix://{sock}"], capture_output=True,
                            text=True, timeout=60)
        check(st.returncode == 0 and f"\nbuild:            {line}\n" in st.stdout,
              f"cuzk-bench status (GetStatus build):\n{st.stdout}{st.stderr}")

        want = "cuzk_build_info{" + ",".join(f'{k}="{v}"' for k, v in labels.items()) + "} 1"
        port = re.search(r"HTTP /metrics and /status on port (\d+)", text).group(1)
        scraped = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30).read()
        got = [s for s in scraped.decode().splitlines() if s.startswith("cuzk_build_info")]
        check(got == [want], f"/metrics: {got}, expected [{want!r}]")
        check("# TYPE cuzk_build_info gauge\n" in scraped.decode(), "/metrics: the TYPE line")
        mt = subprocess.run([bench, "metrics", "-a", f"unix://{sock}"], capture_output=True,
                            text=True, timeout=60)
        got = [s for s in mt.stdout.splitlines() if s.startswith("cuzk_build_info")]
        check(mt.returncode == 0 and got == [want], f"GetMetrics: {got}{mt.stderr}")
    finally:
        if p.poll() is None:
            p.terminate()
        check(p.wait(timeout=60) == 0, f"the daemon's exit on SIGTERM:\n{open(log).read()}")
        shutil.rmtree(work, ignore_errors=True)
    print(f"test_version: {line}: {'FAILED' if FAILS else 'ok'}")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
