#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Known answers for the WindowPoSt public inputs of tests/test_post_circuit.c (docs/post.md
"Public inputs"), computed with hashlib only, independently of the C code.

The vector of one partition: per sector block its comm_r, then the leaves of its C challenges;
block b of partition k has sector index k * S + b (API 1.0.0: challenge index sector_index * C +
n; API 1.2.0: n); a partition given fewer than S sectors repeats its last block up to S. Each
value is written as 32 bytes little-endian and the vector is summarised by the SHA-256 of those
bytes.

Run once as `python3 tests/ref/post_inputs.py`; its output was pasted into the test's tables.
Inputs: the randomness of post_challenges.py (bytes 0..31); comm_r of sector i (0-based in the
list) = SHA-256(b"comm_r" || i as one byte) with byte 31 & 0x3f (canonical).
"""
import hashlib

RANDOMNESS = bytes(range(32))[:31] + bytes([31 & 0x3F])
C = 10  # WINDOW_POST_CHALLENGE_COUNT
NODES = {"8MiB": 2**18, "32GiB": 2**30, "64GiB": 2**31}


def leaf(sector_id, ci, nodes):
    h = hashlib.sha256(RANDOMNESS + sector_id.to_bytes(8, "little") + ci.to_bytes(8, "little"))
    return int.from_bytes(h.digest()[:8], "little") % nodes


def comm_r(i):
    b = bytearray(hashlib.sha256(b"comm_r" + bytes([i])).digest())
    b[31] &= 0x3F
    return bytes(b)


def blocks(ids, comms, nodes, s, k, v1_2):
    """The partition's blocks: lists of C + 1 integers, padded to s."""
    out = []
    for b, (sid, cr) in enumerate(zip(ids, comms)):
        sector_index = k * s + b
        ci = [n if v1_2 else sector_index * C + n for n in range(C)]
        out.append([int.from_bytes(cr, "little")] + [leaf(sid, x, nodes) for x in ci])
    while len(out) < s:
        out.append(out[-1])
    return out


def digest(bl):
    h = hashlib.sha256()
    for blk in bl:
        for v in blk:
            h.update(v.to_bytes(32, "little"))
    return h.hexdigest()


def main():
    print("randomness", RANDOMNESS.hex())
    # 8 MiB (S = 2, the registered circuit) and a 3-sector circuit of the same size, sectors 17
    # and 42 at partition 1: the leaves of each block (comm_r comes from the test's replicas)
    for name, s, v1_2 in [("8MiB S=2 V1_0", 2, False), ("8MiB S=2 V1_2", 2, True),
                          ("8MiB S=3 V1_0", 3, False)]:
        bl = blocks([17, 42], [bytes(32)] * 2, NODES["8MiB"], s, 1, v1_2)
        print(name, [blk[1:] for blk in bl])
    # 32 GiB (S = 2349) partition 1 given three sectors, both API versions; 64 GiB (S = 2300)
    # partition 2 given the first of them, 1.0.0
    ids32 = [5, 6000, 123456789012]
    for v1_2 in (False, True):
        bl = blocks(ids32, [comm_r(i) for i in range(3)], NODES["32GiB"], 2349, 1, v1_2)
        print("32GiB V1_%d" % (2 if v1_2 else 0), len(bl) * (C + 1), "values",
              "block0", bl[0][1:], "block2", bl[2][1:], "sha256", digest(bl))
    bl = blocks(ids32[:1], [comm_r(0)], NODES["64GiB"], 2300, 2, False)
    print("64GiB V1_0", len(bl) * (C + 1), "values", "block0", bl[0][1:], "sha256", digest(bl))
    print("comm_r", [comm_r(i).hex() for i in range(3)])


if __name__ == "__main__":
    main()
