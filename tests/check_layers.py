#!/usr/bin/env python3
"""Fails if a source file under src/<layer>/ includes a header of a higher layer
(docs/architecture.md). Usage: check_layers.py SRC_DIR"""
import pathlib
import re
import sys

# Rank of each layer, low to high; msm, ntt and hashes are peers and may not include each other.
RANK = {"util": 0, "field": 1, "curve": 2, "pairing": 3, "msm": 4, "ntt": 4, "hashes": 4,
        "r1cs": 5, "groth16": 6, "porep": 7, "post": 8, "engine": 9, "server": 10}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z0-9_]+)/[^"]+"', re.M)


def main():
    src = pathlib.Path(sys.argv[1])
    bad = []
    checked = 0
    for f in sorted(src.rglob("*")):
        if f.suffix not in (".c", ".h", ".inc", ".S") or not f.is_file():
            continue
        layer = f.relative_to(src).parts[0]
        if layer not in RANK:
            bad.append(f"{f}: folder '{layer}' is not a known layer")
            continue
        checked += 1
        for dep in INCLUDE.findall(f.read_text()):
            if dep == "cuzk":
                continue  # public headers
            if dep not in RANK:
                bad.append(f"{f}: includes unknown layer '{dep}'")
            elif dep != layer and RANK[dep] >= RANK[layer]:
                bad.append(f"{f}: layer '{layer}' must not include '{dep}'")
    for b in bad:
        print(b)
    print(f"check_layers: {checked} files, {len(bad)} violations")
    return 1 if bad or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
