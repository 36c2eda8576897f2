#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Known answers for tests/test_post_vanilla.c (PoSt challenges, docs/post.md "Challenges"),
computed with hashlib only, independently of the C code.

Run once as `python3 tests/ref/post_challenges.py`; its output lines were pasted into the test's
tables (leaf challenges, one sector's V1_0 / V1_2 Window lists, the Winning list, the Winning
sector selection). Inputs: randomness = bytes 0..31 with byte 31 &= 0x3f, sector ids 7 and
123456789012, prover_id of miner 1000 (LEB128 e8 07, zero padded).
"""
import hashlib

RANDOMNESS = bytes(range(32))[:31] + bytes([31 & 0x3F])
PROVER_ID = bytes([0xE8, 0x07]) + bytes(30)
NODES = {"2KiB": 2**6, "8MiB": 2**18, "512MiB": 2**24, "32GiB": 2**30, "64GiB": 2**31}


def u64(b):
    return int.from_bytes(b[:8], "little")


def le64(x):
    return x.to_bytes(8, "little")


def leaf(randomness, sector_id, ci, nodes):
    """SHA-256(randomness || sector_id u64 LE || challenge index u64 LE), first 8 bytes LE, mod N."""
    return u64(hashlib.sha256(randomness + le64(sector_id) + le64(ci)).digest()) % nodes


def challenge_index(v1_2, sector_index, per_sector, n):
    return n if v1_2 else sector_index * per_sector + n


def winning_sector(prover_id, randomness, n, set_len):
    return u64(hashlib.sha256(prover_id + randomness + le64(n)).digest()) % set_len


def main():
    print("randomness", RANDOMNESS.hex())
    # raw leaves: (sector id, challenge index) for the 32 GiB and 2 KiB node counts
    for sid, ci in [(7, 0), (7, 1), (7, 65), (123456789012, 3), (123456789012, 20000)]:
        print("leaf", sid, ci, leaf(RANDOMNESS, sid, ci, NODES["32GiB"]),
              leaf(RANDOMNESS, sid, ci, NODES["64GiB"]), leaf(RANDOMNESS, sid, ci, NODES["2KiB"]))
    # one 32 GiB Window sector's 10 challenges at sector_index 3: V1_0 (ids 5-9), V1_2 (10-14)
    for name, v1_2 in [("window32g_v1_0", False), ("window32g_v1_2", True)]:
        print(name, [leaf(RANDOMNESS, 123456789012, challenge_index(v1_2, 3, 10, n), NODES["32GiB"])
                     for n in range(10)])
    # the 2 KiB Winning list of sector 7 (sector_index 0: indices 0..65)
    print("winning2k", [leaf(RANDOMNESS, 7, n, NODES["2KiB"]) for n in range(66)])
    for set_len in [1, 10, 2349, 1 << 40]:
        print("winning_sector", set_len, winning_sector(PROVER_ID, RANDOMNESS, 0, set_len))


if __name__ == "__main__":
    main()
