#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""The layering rule of docs/architecture.md, checked over src/, include/cuzk/ and tools/:
  - a file under src/<layer>/ includes only headers of its own layer or of lower layers, whether
    internal ("ntt/pass.h") or public ("cuzk/engine.h", mapped to its layer below); peers (msm,
    ntt, hashes) may not include each other;
  - post and snap use porep only through its public headers (what they share with PoRep is the
    filecoin layer's; a porep internal header there is a violation);
  - a public header include/cuzk/X.h (or include/cuzk/<layer>/X.h, the grouped layers' folders,
    named as the layer they hold) includes only public headers of its own or lower layers, never
    an internal one;
  - tools/ include public headers only: an internal header ("porep/c1.h", "server/config.h")
    from tools/ is a violation (what a program needs belongs in include/cuzk/);
  - every "cuzk/X.h" named anywhere exists in the map.
Usage: check_layers.py ROOT      (the repository root; exit 1 on a violation)
       check_layers.py --self-test   (a planted wrong include in each place must be reported)"""
import os
import pathlib
import re
import sys
import tempfile

# Rank of each layer, low to high; msm, ntt and hashes are peers and may not include each other.
RANK = {"util": 0, "field": 1, "curve": 2, "pairing": 3, "msm": 4, "ntt": 4, "hashes": 4,
        "r1cs": 5, "groth16": 6, "filecoin": 7, "porep": 8, "post": 9, "snap": 9, "kinds": 10,
        "engine": 11, "server": 12}
# Lower layers a layer may use only through their public headers: PoSt and SnapDeals share the
# filecoin base with PoRep, not PoRep's internals.
PUBLIC_ONLY = {"post": {"porep"}, "snap": {"porep"}}
# The layer of each public header, by its path under include/cuzk/ (a grouped layer's headers sit
# in a folder named as the layer: "filecoin/sector.h").
PUBLIC = {"pool.h": "util", "prom.h": "util", "file_map.h": "util", "errmsg.h": "util",
          "cpu.h": "util", "progress.h": "util", "field.h": "field", "curve.h": "curve", "pairing.h": "pairing",
          "msm.h": "msm", "msm_calibration.h": "msm", "ntt.h": "ntt", "sha256.h": "hashes", "poseidon.h": "hashes",
          "r1cs.h": "r1cs", "gadgets.h": "r1cs", "pce.h": "r1cs", "groth16.h": "groth16",
          "g16_backend.h": "groth16", "filecoin/sector.h": "filecoin",
          "filecoin/bincode.h": "filecoin", "filecoin/sdr_graph.h": "filecoin",
          "filecoin/seal.h": "filecoin", "porep.h": "porep", "c1.h": "porep", "vanilla.h": "porep",
          "stacked_circuit.h": "porep", "c2.h": "porep", "post.h": "post", "snap.h": "snap",
          "kinds.h": "kinds",
          "engine.h": "engine", "server.h": "server", "rpc.h": "server", "version.h": "server",
          "v1/proving.pb-c.h": "server"}  # generated from proto/ at build time
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z0-9_]+)/([^"]+)"', re.M)
SUFFIXES = (".c", ".h", ".inc", ".S")


def layer_of(dep, name, where, bad):
    """The layer an include names, or None (reported) if unknown."""
    if dep == "cuzk":
        if name not in PUBLIC:
            bad.append(f"{where}: includes unknown public header cuzk/{name}")
            return None
        return PUBLIC[name]
    if dep not in RANK:
        bad.append(f"{where}: includes unknown layer '{dep}'")
        return None
    return dep


def allowed(dep_layer, layer):
    return dep_layer == layer or RANK[dep_layer] < RANK[layer]


def check(root):
    root = pathlib.Path(root)
    bad, checked = [], 0
    for f in sorted((root / "src").rglob("*")):
        if f.suffix not in SUFFIXES or not f.is_file():
            continue
        layer = f.relative_to(root / "src").parts[0]
        if layer not in RANK:
            bad.append(f"{f}: folder '{layer}' is not a known layer")
            continue
        checked += 1
        for dep, name in INCLUDE.findall(f.read_text()):
            d = layer_of(dep, name, f, bad)
            if d and not allowed(d, layer):
                bad.append(f"{f}: layer '{layer}' must not include {dep}/{name} (layer '{d}')")
            elif dep in PUBLIC_ONLY.get(layer, ()):
                bad.append(f"{f}: layer '{layer}' must not include the internal {dep}/{name} "
                           f"(use include/cuzk/, or move what is shared to a lower layer)")
    pub = root / "include" / "cuzk"
    for f in sorted(pub.rglob("*.h")):
        checked += 1
        key = f.relative_to(pub).as_posix()
        layer = PUBLIC.get(key)
        if not layer:
            bad.append(f"{f}: public header not in the layer map (tests/check_layers.py)")
            continue
        if "/" in key and key.split("/")[0] != layer:
            bad.append(f"{f}: in folder '{key.split('/')[0]}' but of layer '{layer}'")
        for dep, name in INCLUDE.findall(f.read_text()):
            if dep != "cuzk":
                bad.append(f"{f}: a public header includes the internal {dep}/{name}")
                continue
            d = layer_of(dep, name, f, bad)
            if d and not allowed(d, layer):
                bad.append(f"{f}: layer '{layer}' must not include cuzk/{name} (layer '{d}')")
    for f in sorted((root / "tools").rglob("*")):
        if f.suffix not in SUFFIXES or not f.is_file():
            continue
        checked += 1
        for dep, name in INCLUDE.findall(f.read_text()):
            if dep == "cuzk":
                layer_of(dep, name, f, bad)
            elif dep in RANK:
                bad.append(f"{f}: a program includes the internal {dep}/{name} (use include/cuzk/)")
    return checked, bad


def self_test():
    """Plants one wrong include per rule in a small tree; each must be reported."""
    cases = {
        "src/util/vec.c": '#include "cuzk/engine.h"\n',            # public header, higher layer
        "src/msm/plan.c": '#include "ntt/pass.h"\n',                # a peer's internal header
        "src/field/fp.c": '#include "curve/x.h"\n',                 # a higher internal header
        "include/cuzk/field.h": '#include "cuzk/groth16.h"\n',      # public -> higher public
        "include/cuzk/ntt.h": '#include "ntt/pass.h"\n',            # public -> internal
        "tools/t/main.c": '#include "cuzk/nosuch.h"\n',             # unknown public header
        "tools/t/cmd.c": '#include "porep/c1.h"\n',                 # a program -> internal
        "src/filecoin/comm_d.c": '#include "cuzk/c1.h"\n',         # the base -> porep (higher)
        "include/cuzk/filecoin/seal.h": '#include "cuzk/c1.h"\n',  # grouped public -> higher
        "src/snap/sector.c": '#include "porep/c1.h"\n',            # snap -> porep internal
    }
    # a file whose mere presence is the violation: not in the shared tree of the other cases
    cases["include/cuzk/filecoin/c1.h"] = ""                       # a public header not in the map
    ok = True
    for path, line in cases.items():
        with tempfile.TemporaryDirectory() as d:
            for p in [c for c in cases if cases[c]] + ["src/engine/e.c", "include/cuzk/engine.h"]:
                full = os.path.join(d, p)
                os.makedirs(os.path.dirname(full), exist_ok=True)
                open(full, "a").close()
            full = os.path.join(d, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(line)
            _, bad = check(d)
            if not any(path in b for b in bad):
                print(f"self-test: planted '{line.strip() or path}' in {path} was not reported")
                ok = False
        # and the same tree without the planted line is clean
    with tempfile.TemporaryDirectory() as d:
        clean = {"src/engine/e.c": '#include "cuzk/field.h"\n',
                 "src/snap/s.c": '#include "cuzk/filecoin/seal.h"\n#include "cuzk/porep.h"\n',
                 "include/cuzk/engine.h": "", "include/cuzk/field.h": "",
                 "include/cuzk/filecoin/seal.h": '#include "cuzk/filecoin/sector.h"\n',
                 "include/cuzk/filecoin/sector.h": "", "include/cuzk/porep.h": ""}
        for p, text in clean.items():
            full = os.path.join(d, p)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            open(full, "w").write(text)
        if check(d)[1]:
            print("self-test: a clean tree was reported")
            ok = False
    print("check_layers self-test:", "ok" if ok else "FAILED")
    return 0 if ok else 1


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        return self_test()
    checked, bad = check(sys.argv[1])
    for b in bad:
        print(b)
    print(f"check_layers: {checked} files, {len(bad)} violations")
    return 1 if bad or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
