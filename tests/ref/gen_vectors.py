#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Write BLS12-381 test vectors from the reference model in bls12_381.py.

    python3 tests/ref/gen_vectors.py --seed S --count N [--pairings K] > vectors.txt

One vector per line: `<op> <inputs...> <outputs...>`, space-separated.  Field
elements are big-endian canonical hex (Fp 96 chars, Fr 64), extension field
elements are their Fp coefficients joined by commas in tower order, points are
uncompressed ZCash encodings in hex, scalars are 64 hex chars.  README.md in
this directory lists every op.  The output depends only on --seed, --count
and --pairings.
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bls12_381 import (  # noqa: E402  (path set up just above)
    G1, G1_GEN, G2, G2_GEN, P, R, Fp, Fp2, Fp6, Fp12, Fr, pairing,
)


# --- Formatting --------------------------------------------------------------

def tok(x):
    """The token for a field element, point, scalar (int) or missing root."""
    if x is None:
        return "none"
    if isinstance(x, Fr):
        return format(x.v, "064x")
    if isinstance(x, (G1, G2)):
        return x.to_uncompressed().hex()
    if isinstance(x, int):  # scalars; legendre results are passed as str
        return format(x, "064x")
    return ",".join(format(c, "096x") for c in x.to_ints())


def line(op, *items):
    return " ".join([op] + [it if isinstance(it, str) else tok(it) for it in items])


# --- Random and edge-case inputs ---------------------------------------------

FP_EDGES = [0, 1, 2, 3, P - 1, P - 2, (P - 1) // 2, (P + 1) // 2]
FR_EDGES = [0, 1, 2, 3, R - 1, R - 2, (R - 1) // 2, (R + 1) // 2]


def fp2_edges():
    small = [0, 1, P - 1]
    return [Fp2.from_ints(a, b) for a in small for b in small]


def fp6_edges():
    v = Fp6(Fp2.zero(), Fp2.one(), Fp2.zero())
    return [Fp6.zero(), Fp6.one(), v, Fp6.from_ints(*[P - 1] * 6),
            Fp6.from_ints(*range(1, 7))]


def fp12_edges():
    w = Fp12(Fp6.zero(), Fp6.one())
    return [Fp12.zero(), Fp12.one(), w, Fp12.from_ints(*[P - 1] * 12),
            Fp12.from_ints(*range(1, 13))]


class Gen:
    def __init__(self, rng, count):
        self.rng, self.count = rng, count
        # Fixed-base tables make the many random points s*G cheap:
        # table[j][d] = d * 16^j * G, so s*G is at most 64 affine additions.
        self.tables = {G1: self._table(G1_GEN), G2: self._table(G2_GEN)}

    @staticmethod
    def _table(gen):
        table, base = [], gen
        for _ in range(64):
            row = [type(gen).infinity(), base]
            for _ in range(14):
                row.append(row[-1] + base)
            table.append(row)
            base = row[-1] + base  # 16 * base
        return table

    def fixed_base_mul(self, cls, s):
        acc = cls.infinity()
        for row in self.tables[cls]:
            acc = acc + row[s & 15]
            s >>= 4
        return acc

    def fp(self):
        return Fp(self.rng.randrange(P))

    def fr(self):
        return Fr(self.rng.randrange(R))

    def fp2(self):
        return Fp2(self.fp(), self.fp())

    def fp6(self):
        return Fp6(self.fp2(), self.fp2(), self.fp2())

    def fp12(self):
        return Fp12(self.fp6(), self.fp6())

    def scalar(self):
        return self.rng.randrange(R)

    def point(self, cls):
        """A random point of the prime-order group, s * generator."""
        return self.fixed_base_mul(cls, self.scalar())

    def many(self, make):
        return [make() for _ in range(self.count)]


def cyclotomic(f):
    """f^((p^6 - 1)(p^2 + 1)), which lies in the cyclotomic subgroup."""
    t = f.conjugate() * f.inv()
    return t.frobenius(2) * t


# --- Ops ---------------------------------------------------------------------

def prime_field_ops(g, cls, prefix, edges, rand):
    out = []
    pairs = [(cls(a), cls(b)) for a in edges for b in edges]
    pairs += [(rand(), rand()) for _ in range(g.count)]
    singles = [cls(a) for a in edges] + g.many(rand)
    for a, b in pairs:
        out.append(line(prefix + "_add", a, b, a + b))
    for a, b in pairs:
        out.append(line(prefix + "_sub", a, b, a - b))
    for a, b in pairs:
        out.append(line(prefix + "_mul", a, b, a * b))
    for a in singles:
        out.append(line(prefix + "_sqr", a, a.square()))
    for a in singles:
        out.append(line(prefix + "_neg", a, -a))
    for a in singles:
        if not a.is_zero():
            out.append(line(prefix + "_inv", a, a.inv()))
    for a in singles + [s.square() for s in g.many(rand)]:
        out.append(line(prefix + "_legendre", a, str(a.legendre())))
    if cls is Fp:
        # Half the random inputs are squares, so both outcomes are common.
        for a in singles[:len(edges)] + [Fp(4), Fp(9)] + [x.square() for x in g.many(rand)] + g.many(rand):
            out.append(line("fp_sqrt", a, a.sqrt()))
    return out


def fp2_ops(g):
    out = []
    edges = fp2_edges()
    pairs = [(a, b) for a in edges for b in edges] + [(g.fp2(), g.fp2()) for _ in range(g.count)]
    singles = edges + g.many(g.fp2)
    for a, b in pairs:
        out.append(line("fp2_add", a, b, a + b))
    for a, b in pairs:
        out.append(line("fp2_sub", a, b, a - b))
    for a, b in pairs:
        out.append(line("fp2_mul", a, b, a * b))
    for a in singles:
        out.append(line("fp2_sqr", a, a.square()))
    for a in singles:
        if not a.is_zero():
            out.append(line("fp2_inv", a, a.inv()))
    for a in singles:
        out.append(line("fp2_mul_nonres", a, a.mul_by_nonresidue()))
    # sqrt: edges (including -1 -> u and Fp non-residues, whose roots are
    # purely imaginary), random squares, and random elements (about half
    # have no root).
    sqrt_inputs = edges + [Fp2.from_ints(c, 0) for c in (2, 3, 4, 5, P - 2)]
    sqrt_inputs += [Fp2.from_ints(0, c) for c in (1, 2, P - 1)]
    sqrt_inputs += [x.square() for x in g.many(g.fp2)] + g.many(g.fp2)
    for a in sqrt_inputs:
        out.append(line("fp2_sqrt", a, a.sqrt()))
    for a in singles:
        out.append(line("fp2_frob", a, a.frobenius(1)))
    return out


def fp6_ops(g):
    out = []
    edges = fp6_edges()
    pairs = [(a, b) for a in edges for b in edges] + [(g.fp6(), g.fp6()) for _ in range(g.count)]
    singles = edges + g.many(g.fp6)
    for a, b in pairs:
        out.append(line("fp6_add", a, b, a + b))
    for a, b in pairs:
        out.append(line("fp6_sub", a, b, a - b))
    for a, b in pairs:
        out.append(line("fp6_mul", a, b, a * b))
    for a in singles:
        out.append(line("fp6_sqr", a, a.square()))
    for a in singles:
        if not a.is_zero():
            out.append(line("fp6_inv", a, a.inv()))
    for a in singles:
        out.append(line("fp6_mul_nonres", a, a.mul_by_nonresidue()))
    return out


def fp12_ops(g, gt_sample):
    out = []
    edges = fp12_edges()
    pairs = [(a, b) for a in edges for b in edges] + [(g.fp12(), g.fp12()) for _ in range(g.count)]
    singles = edges + g.many(g.fp12)
    for a, b in pairs:
        out.append(line("fp12_mul", a, b, a * b))
    for a in singles:
        out.append(line("fp12_sqr", a, a.square()))
    for a in singles:
        if not a.is_zero():
            out.append(line("fp12_inv", a, a.inv()))
    for a in singles:
        out.append(line("fp12_conj", a, a.conjugate()))
    for n in (1, 2, 3):
        for a in singles:
            out.append(line("fp12_frob%d" % n, a, a.frobenius(n)))
    cyclo = [Fp12.one(), gt_sample] + [cyclotomic(g.fp12()) for _ in range(g.count)]
    for a in cyclo:
        out.append(line("fp12_cyclo_sqr", a, a.square()))
    return out


def point_ops(g, cls, prefix, gen):
    out = []
    O = cls.infinity()
    pts = [g.point(cls) for _ in range(g.count)]
    # add: identity cases, P + P (must double), P + (-P), then random pairs.
    p0 = pts[0]
    add_pairs = [(O, O), (O, p0), (p0, O), (p0, p0), (p0, -p0), (gen, gen), (gen, -gen)]
    add_pairs += [(a, g.point(cls)) for a in pts]
    for a, b in add_pairs:
        out.append(line(prefix + "_add", a, b, a + b))
    for a in [O, gen, -gen] + pts:
        out.append(line(prefix + "_dbl", a, a.double()))
    mul_cases = [(p0, 0), (p0, 1), (p0, 2), (p0, R - 1), (O, g.scalar()), (gen, 1), (gen, R - 1)]
    mul_cases += [(a, g.scalar()) for a in pts[1:]]
    for a, k in mul_cases:
        out.append(line(prefix + "_mul", a, k, a * k))
    for a in [O, gen, -gen] + pts:
        out.append(line(prefix + "_compress", a, a.to_compressed().hex()))
    return out


def pairing_ops(g, n_pairings, e_gen):
    out = [line("pairing", G1.infinity(), G2_GEN, Fp12.one()),
           line("pairing", G1_GEN, G2.infinity(), Fp12.one()),
           line("pairing", G1_GEN, G2_GEN, e_gen)]
    for _ in range(n_pairings):
        p, q = g.point(G1), g.point(G2)
        out.append(line("pairing", p, q, pairing(p, q)))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, default=200, help="random vectors per op")
    ap.add_argument("--pairings", type=int, default=4, help="random pairing vectors")
    ap.add_argument("--out", help="write here instead of standard output")
    ap.add_argument("--if-missing", action="store_true",
                    help="with --out: keep a file already there (a cache keyed by the arguments "
                         "and this model's source, tests/CMakeLists.txt)")
    args = ap.parse_args(argv)
    if args.if_missing and args.out and os.path.exists(args.out):
        print(f"gen_vectors: {args.out} kept")
        return

    g = Gen(random.Random(args.seed), args.count)
    e_gen = pairing(G1_GEN, G2_GEN)
    sections = [
        prime_field_ops(g, Fp, "fp", FP_EDGES, g.fp),
        prime_field_ops(g, Fr, "fr", FR_EDGES, g.fr),
        fp2_ops(g),
        fp6_ops(g),
        fp12_ops(g, e_gen),
        point_ops(g, G1, "g1", G1_GEN),
        point_ops(g, G2, "g2", G2_GEN),
        pairing_ops(g, args.pairings, e_gen),
    ]
    # written under a temporary name and renamed: an interrupted run leaves no file under the
    # name --if-missing trusts
    tmp = f"{args.out}.tmp{os.getpid()}" if args.out else None
    if args.out:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    out = open(tmp, "w") if args.out else sys.stdout
    for section in sections:
        out.write("\n".join(section))
        out.write("\n")
    if args.out:
        out.close()
        os.replace(tmp, args.out)


if __name__ == "__main__":
    main()
