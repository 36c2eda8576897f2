#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""The layering rule of docs/architecture.md, checked over src/, include/cuzk/ and tools/:
  - a file under src/<layer>/ includes only headers of its own layer or of lower layers, whether
    internal ("ntt/pass.h") or public ("cuzk/engine/engine.h", of the layer its folder names);
    peers (msm, ntt, hashes) may not include each other;
  - post and snap use porep only through its public headers (what they share with PoRep is the
    filecoin layer's; a porep internal header there is a violation);
  - every public header sits in the folder of its layer, include/cuzk/<layer>/X.h, and includes
    only public headers of its own or lower layers, never an internal one;
  - tools/ include public headers only: an internal header ("porep/c1.h", "server/config.h")
    from tools/ is a violation (what a program needs belongs in include/cuzk/);
  - every "cuzk/<layer>/X.h" named anywhere exists under include/cuzk/ (or is the generated
    "cuzk/v1/proving.pb-c.h").
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
# A public header's layer is its folder under include/cuzk/ ("util/pool.h": util); the one
# exception is generated from proto/ at build time, into the build tree.
GENERATED = {"v1/proving.pb-c.h": "server"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z0-9_]+)/([^"]+)"', re.M)
SUFFIXES = (".c", ".h", ".inc", ".S")


def layer_of(dep, name, where, bad, root):
    """The layer an include names, or None (reported) if unknown."""
    if dep == "cuzk":
        if name in GENERATED:
            return GENERATED[name]
        folder = name.split("/")[0] if "/" in name else None
        if folder not in RANK or not (root / "include" / "cuzk" / name).is_file():
            bad.append(f"{where}: includes unknown public header cuzk/{name}")
            return None
        return folder
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
            d = layer_of(dep, name, f, bad, root)
            if d and not allowed(d, layer):
                bad.append(f"{f}: layer '{layer}' must not include {dep}/{name} (layer '{d}')")
            elif dep in PUBLIC_ONLY.get(layer, ()):
                bad.append(f"{f}: layer '{layer}' must not include the internal {dep}/{name} "
                           f"(use include/cuzk/, or move what is shared to a lower layer)")
    pub = root / "include" / "cuzk"
    for f in sorted(pub.rglob("*.h")):
        checked += 1
        parts = f.relative_to(pub).parts
        layer = parts[0] if len(parts) == 2 else None
        if layer not in RANK:
            bad.append(f"{f}: a public header outside a layer's folder (include/cuzk/<layer>/)")
            continue
        for dep, name in INCLUDE.findall(f.read_text()):
            if dep != "cuzk":
                bad.append(f"{f}: a public header includes the internal {dep}/{name}")
                continue
            d = layer_of(dep, name, f, bad, root)
            if d and not allowed(d, layer):
                bad.append(f"{f}: layer '{layer}' must not include cuzk/{name} (layer '{d}')")
    for f in sorted((root / "tools").rglob("*")):
        if f.suffix not in SUFFIXES or not f.is_file():
            continue
        checked += 1
        for dep, name in INCLUDE.findall(f.read_text()):
            if dep == "cuzk":
                layer_of(dep, name, f, bad, root)
            elif dep in RANK:
                bad.append(f"{f}: a program includes the internal {dep}/{name} (use include/cuzk/)")
    return checked, bad


def self_test():
    """Plants one wrong include per rule in a small tree; each must be reported, for its reason."""
    # the public headers the planted includes name exist, so each is reported for its rule alone
    base = ["src/engine/e.c", "include/cuzk/engine/engine.h", "include/cuzk/groth16/groth16.h",
            "include/cuzk/porep/c1.h", "include/cuzk/field/field.h", "include/cuzk/ntt/ntt.h",
            "include/cuzk/filecoin/seal.h"]
    cases = {  # path: (the planted line, what the report must say)
        "src/util/vec.c": ('#include "cuzk/engine/engine.h"\n', "must not include"),
        "src/msm/plan.c": ('#include "ntt/pass.h"\n', "must not include"),      # a peer's internal
        "src/field/fp.c": ('#include "curve/x.h"\n', "must not include"),       # higher internal
        "include/cuzk/field/field.h": ('#include "cuzk/groth16/groth16.h"\n',  # public -> higher
                                       "must not include"),
        "include/cuzk/ntt/ntt.h": ('#include "ntt/pass.h"\n', "includes the internal"),
        "tools/t/main.c": ('#include "cuzk/nosuch.h"\n', "unknown public header"),  # no folder
        "tools/t/lost.c": ('#include "cuzk/util/nosuch.h"\n', "unknown public header"),  # no file
        "tools/t/cmd.c": ('#include "porep/c1.h"\n', "a program includes the internal"),
        "src/filecoin/comm_d.c": ('#include "cuzk/porep/c1.h"\n', "must not include"),
        "include/cuzk/filecoin/seal.h": ('#include "cuzk/porep/c1.h"\n', "must not include"),
        "src/snap/sector.c": ('#include "porep/c1.h"\n', "must not include the internal"),
        # files whose mere presence is the violation: a public header outside a layer's folder
        "include/cuzk/loose.h": ("", "outside a layer's folder"),
        "include/cuzk/nosuch/x.h": ("", "outside a layer's folder"),
        "include/cuzk/util/deep/x.h": ("", "outside a layer's folder"),
    }
    ok = True
    for path, (line, why) in cases.items():
        with tempfile.TemporaryDirectory() as d:
            for p in [c for c in cases if cases[c][0]] + base:
                full = os.path.join(d, p)
                os.makedirs(os.path.dirname(full), exist_ok=True)
                open(full, "a").close()
            full = os.path.join(d, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(line)
            _, bad = check(d)
            if not any(path in b and why in b for b in bad):
                print(f"self-test: planted '{line.strip() or path}' in {path} was not reported "
                      f"as '{why}': {bad}")
                ok = False
    # and a tree of allowed includes is clean
    with tempfile.TemporaryDirectory() as d:
        clean = {"src/engine/e.c": '#include "cuzk/field/field.h"\n#include "cuzk/util/pool.h"\n',
                 "src/snap/s.c": '#include "cuzk/filecoin/seal.h"\n#include "cuzk/porep/porep.h"\n',
                 "src/server/v.c": '#include "cuzk/v1/proving.pb-c.h"\n',
                 "tools/t/main.c": '#include "cuzk/engine/engine.h"\n',
                 "include/cuzk/engine/engine.h": '#include "cuzk/field/field.h"\n',
                 "include/cuzk/field/field.h": '#include "cuzk/util/pool.h"\n',
                 "include/cuzk/util/pool.h": "",
                 "include/cuzk/filecoin/seal.h": '#include "cuzk/filecoin/sector.h"\n',
                 "include/cuzk/filecoin/sector.h": "", "include/cuzk/porep/porep.h": ""}
        for p, text in clean.items():
            full = os.path.join(d, p)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            open(full, "w").write(text)
        if check(d)[1]:
            print("self-test: a clean tree was reported:", check(d)[1])
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
