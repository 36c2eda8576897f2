#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Generates src/field/mont_x86_64_adx.S: python3 scripts/gen-mont-adx.py > src/field/mont_x86_64_adx.S
(add --blsi for the variant that also needs BMI1). Re-run the kernel tests after any change."""
P = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
def limbs(x,n): return [(x>>(64*i))&(2**64-1) for i in range(n)]
def ninv(m,bits): return (-pow(m,-1,2**bits)) % 2**bits
CONST = {"fp": (P,6), "fr": (R,4)}
import sys
NOBLSI = "--blsi" not in sys.argv   # default: no BMI1 dependency
def d32(r): return {"rax":"eax","rbx":"ebx","rcx":"ecx","rdx":"edx","rsi":"esi","rdi":"edi","rbp":"ebp"}.get(r, r+"d")
out=[]
def e(s): out.append("\t"+s)
def c(s): out.append("\t/* "+s+" */")
def lab(s): out.append(s)

def cond_sub_store(n, M, t, free, rp):
    c("final conditional subtraction: r = (t >= m) ? t - m : t")
    s=free[:n]; assert len(s)==n
    for j in range(n):
        e(f"mov {s[j]}, {t[j]}")
        e(("sub" if j==0 else "sbb")+f" {s[j]}, [rip+{M}+{8*j}]")
    for j in range(n): e(f"cmovnc {t[j]}, {s[j]}")
    for j in range(n): e(f"mov [{rp}+{8*j}], {t[j]}")

def func_begin(name, doc):
    lab("")
    for l in doc: lab("/* "+l+" */")
    lab(f"\t.globl\t{name}\n\t.type\t{name},@function\n\t.p2align 5\n{name}:")
def func_end(name):
    lab(f"\t.size\t{name}, .-{name}")

# ---------------------------------------------------------------------------
# Montgomery multiplication: CIOS, one 64-bit digit per step.
#   iteration i:  [early: lo(a0*b[i+1]) into t1, carry kept in HR]
#                 [reduce: m = t0*n0; t += m*p (CF chain: hi parts, OF chain: lo parts)]
#                 [rest of row b[i+1] into t2..t(n+1)]
# The early hoist puts the only product term that feeds the next m in front of the
# reduction, so the serial m -> m' path is mulx.hi(4) + add(1) + imul(3) cycles.
# (optional --blsi: blsi sets CF = (m != 0) = carry out of t0 + lo(m*p0) and clears
#  OF, so lo(m*p0) is never added; ~1% faster but needs BMI1, so it is off by default.)
def mont_mul(name, F, endfix):
    m_, n = CONST[F]; M=f".L{F}_m"
    func_begin(name, [f"void {name}(uint64_t r[{n}], const uint64_t a[{n}], const uint64_t b[{n}])",
                      f"r = a*b*2^-{64*n} mod m  (CIOS Montgomery, 64-bit digits)"])
    if n==6:
        saved=["rbp","rbx","r12","r13","r14","r15"]; acc=["r8","r9","r10","r11","r12","r13","r14","r15"]
        LO,HA,HB,HR="rax","rbx","rdi","rbp"; spill=True
    else:
        saved=["rbp","rbx","r12","r13","r14"]; acc=["r8","r9","r10","r11","r12","r13"]
        LO,HA,HB,HR="rax","rbx","r14","rbp"; spill=False
    for r in saved: e(f"push {r}")
    if spill: e("push rdi"); c("r pointer lives on the stack; rdi is a temporary")
    B="rcx"
    e("mov rcx, rdx")
    c("row 0: t = a*b[0]")
    e(f"mov rdx, [{B}]")
    t=acc[:]
    e(f"mulx {t[1]}, {t[0]}, [rsi]")
    for j in range(1,n):
        e(f"mulx {t[j+1]}, {LO}, [rsi+{8*j}]")
        e(("add" if j==1 else "adc")+f" {t[j]}, {LO}")
    e(f"adc {t[n]}, 0")
    H=[HA,HB]
    for i in range(n):
        last=(i==n-1)
        if not last:
            c(f"iteration {i}: early part of row {i+1}: t1 += lo(a0*b[{i+1}]), carry into hi")
            e(f"mov rdx, [{B}+{8*(i+1)}]")
            e(f"mulx {HR}, {LO}, [rsi]")
            e(f"add {t[1]}, {LO}")
            e(f"adc {HR}, 0")
        c(f"iteration {i}: m = t0*n0; t += m*p")
        e(f"mov rdx, {t[0]}")
        e(f"imul rdx, qword ptr [rip+{M}_n0]")
        if NOBLSI:
            e(f"xor {d32(LO)}, {d32(LO)}")
            e(f"mulx {H[0]}, {LO}, [rip+{M}]")
            e(f"adcx {t[0]}, {LO}")
        else:
            e(f"blsi {LO}, rdx")
            e(f"mulx {H[0]}, {H[0]}, [rip+{M}]")
        for j in range(1,n):
            e(f"mulx {H[j%2]}, {LO}, [rip+{M}+{8*j}]")
            e(f"adox {t[j]}, {LO}")
            e(f"adcx {t[j]}, {H[(j-1)%2]}")
        if endfix:
            e(f"adox {t[n]}, {H[(n-1)%2]}")
            e(f"adc {t[n]}, 0")
        else:
            if not NOBLSI: e(f"mov {d32(t[0])}, 0")
            e(f"adox {t[n]}, {t[0]}")
            e(f"adcx {t[n]}, {H[(n-1)%2]}")
        if not last:
            c(f"iteration {i}: rest of row {i+1}: t[2..{n+1}] += a[1..{n-1}]*b[{i+1}] + pending hi")
            e(f"mov rdx, [{B}+{8*(i+1)}]")
            e(f"xor {d32(t[n+1])}, {d32(t[n+1])}")
            e(f"mulx {H[1]}, {LO}, [rsi+8]")
            e(f"adox {t[2]}, {HR}")
            e(f"adcx {t[2]}, {LO}")
            for j in range(2,n):
                e(f"mulx {H[j%2]}, {LO}, [rsi+{8*j}]")
                e(f"adox {t[j+1]}, {H[(j-1)%2]}")
                e(f"adcx {t[j+1]}, {LO}")
            e(f"adox {t[n+1]}, {H[(n-1)%2]}")
            if endfix: e(f"adc {t[n+1]}, 0")
            else: e(f"adcx {t[n+1]}, {t[0]}")
        t=t[1:]+t[:1]
    if spill: e("mov rsi, [rsp]"); rp="rsi"
    else: rp="rdi"
    free=[x for x in ["rax","rbx","rcx","rdx","rbp",t[n],t[n+1] if n+1<len(t) else None,HB] if x and x not in t[:n] and x!=rp]
    cond_sub_store(n, M, t, free, rp)
    if spill: e("add rsp, 8")
    for r in reversed(saved): e(f"pop {r}")
    e("ret")
    func_end(name)

# ---------------------------------------------------------------------------
# Montgomery squaring: full square (cross products once, doubled, plus diagonal),
# then separated Montgomery reduction of the low half with 128-bit digits
# (M = (w0 + w1*2^64) * (-m^-1 mod 2^128)), then + high half, then one
# conditional subtraction.  128-bit digits halve the number of serial
# "compute m, multiply, propagate" steps.
def compute_M(M, w0, w1, LO, H, MH):
    e(f"mov rdx, {w0}")
    e(f"mulx {MH}, {LO}, [rip+{M}_n0]")
    e(f"mov rdx, {w1}")
    e(f"imul rdx, qword ptr [rip+{M}_n0]")
    e(f"mov {H}, {w0}")
    e(f"imul {H}, qword ptr [rip+{M}_n1]")
    e(f"add {H}, rdx")
    e(f"add {MH}, {H}")

def passA(n, M, col, LO, H, Z):
    if NOBLSI:
        e(f"xor {d32(H)}, {d32(H)}")
        e(f"mulx {H}, {LO}, [rip+{M}]")
        e(f"adcx {col(0)}, {LO}")
    else:
        e(f"blsi {H}, rdx")
        e(f"mulx {H}, {H}, [rip+{M}]")
    for j in range(1,n):
        e(f"adcx {col(j)}, {H}")
        e(f"mulx {H}, {LO}, [rip+{M}+{8*j}]")
        e(f"adox {col(j)}, {LO}")
    e(f"adcx {col(n)}, {H}")
    e(f"adox {col(n)}, {Z}")

def passB(n, M, col, LO, H, Z):
    if NOBLSI:
        e(f"xor {d32(LO)}, {d32(LO)}")
        e(f"mulx {H}, {LO}, [rip+{M}]")
        e(f"adcx {col(1)}, {LO}")
    else:
        e(f"blsi {H}, {col(1)}")
        e(f"mulx {H}, {H}, [rip+{M}]")
    for j in range(1,n):
        e(f"adcx {col(j+1)}, {H}")
        e(f"mulx {H}, {LO}, [rip+{M}+{8*j}]")
        e(f"adox {col(j+1)}, {LO}")
    e(f"adcx {col(n+1)}, {H}")
    e(f"adox {col(n+1)}, {Z}")

def mont_sqr(name, F):
    m_, n = CONST[F]; M=f".L{F}_m"
    func_begin(name, [f"void {name}(uint64_t r[{n}], const uint64_t a[{n}])",
                      f"r = a^2*2^-{64*n} mod m  (square, then reduction with 128-bit digits)"])
    LO,H="rax","rbx"
    saved=["rbp","rbx","r12","r13","r14","r15"]
    if n==6:
        cr=[None,"rcx","rbp","rdi","r8","r9","r10","r11","r12","r13","r14"]; T0="r15"; frame=56
    else:
        cr=[None,"rcx","rbp","r8","r9","r10","r11"]; T0="r12"; frame=0
    for r in saved: e(f"push {r}")
    if frame:
        e(f"sub rsp, {frame}")
        e(f"mov [rsp+48], rdi")
        c("[rsp+0..40] = high half of a^2, [rsp+48] = r pointer")
    c("cross products sum_{i<j} a_i*a_j, row by row")
    e("mov rdx, [rsi]")
    e(f"mulx {cr[2]}, {cr[1]}, [rsi+8]")
    for j in range(2,n):
        e(f"mulx {cr[j+1]}, {LO}, [rsi+{8*j}]")
        e(("add" if j==2 else "adc")+f" {cr[j]}, {LO}")
    e(f"adc {cr[n]}, 0")
    for i in range(1,n-1):
        e(f"mov rdx, [rsi+{8*i}]")
        if i < n-2:
            top=cr[i+n]
            e(f"xor {d32(top)}, {d32(top)}")
            for j in range(i+1,n):
                e(f"mulx {H}, {LO}, [rsi+{8*j}]")
                e(f"adcx {cr[i+j]}, {LO}")
                e(f"adox {cr[i+j+1]}, {H}")
            e(f"adc {top}, 0")
        else:
            e(f"mulx {cr[2*n-2]}, {LO}, [rsi+{8*(n-1)}]")
            e(f"add {cr[2*n-3]}, {LO}")
            e(f"adc {cr[2*n-2]}, 0")
    c("double the cross products (CF chain) and add the squares a_i^2 (OF chain)")
    e("mov rdx, [rsi]")
    e(f"xor {d32(LO)}, {d32(LO)}")
    e(f"mulx {H}, {T0}, rdx")
    e(f"adcx {cr[1]}, {cr[1]}")
    e(f"adox {cr[1]}, {H}")
    for k in range(1,n):
        e(f"mov rdx, [rsi+{8*k}]")
        e(f"mulx {H}, {LO}, rdx")
        for (limb,src) in ((2*k,LO),(2*k+1,H)):
            if limb <= 2*n-2:
                e(f"adcx {cr[limb]}, {cr[limb]}")
                e(f"adox {cr[limb]}, {src}")
                if n==6 and limb>=n:
                    e(f"mov [rsp+{8*(limb-n)}], {cr[limb]}")
    e(f"adox {H}, qword ptr [rip+.Lzero]")
    e(f"adc {H}, 0")
    if n==6:
        e(f"mov [rsp+40], {H}")
        Thi=[f"[rsp+{8*k}]" for k in range(6)]
        w=[T0,cr[1],cr[2],cr[3],cr[4],cr[5]]
        tops=["r10","r11"]; MH="r12"; H2="rbx"
    else:
        Thi=[cr[4],cr[5],cr[6],H]
        w=[T0,cr[1],cr[2],cr[3]]
        tops=["r13","r14"]; MH="rsi"; H2="r15"
    for k in range(n//2):
        c(f"reduction step {k}: M = (w0 + w1*2^64)*n' mod 2^128; w += M*m; drop two limbs")
        tA,tB=tops
        e(f"xor {d32(tA)}, {d32(tA)}")
        e(f"xor {d32(tB)}, {d32(tB)}")
        cols=w+[tA,tB]
        col=lambda c_: cols[c_]
        compute_M(M, w[0], w[1], LO, H2, MH)
        e(f"mov rdx, {LO}")
        if not NOBLSI: e(f"xor {d32(w[0])}, {d32(w[0])}")
        Z=w[0]
        c("low digit of M at limb 0 (w0 becomes 0 and then serves as a zero register)")
        passA(n, M, col, LO, H2, Z)
        e(f"mov rdx, {MH}")
        c("high digit of M, one limb up (w1 becomes 0)")
        passB(n, M, col, LO, H2, Z)
        tops=[w[0],w[1]]
        w=w[2:]+[tA,tB]
    c("add the high half of a^2 (sum < 2m)")
    for j in range(n):
        e(("add" if j==0 else "adc")+f" {w[j]}, {Thi[j]}")
    if n==6:
        rp=[x for x in ["rbx","rax","rdx"] if x not in w][0]; e(f"mov {rp}, [rsp+48]")
    else:
        rp="rdi"; assert rp not in w
    free=[x for x in ["rax","rbx","rcx","rdx","rbp","rsi","rdi","r8","r9","r10","r11","r12","r13","r14","r15"] if x not in w and x not in Thi and x!=rp]
    cond_sub_store(n, M, w, free, rp)
    if frame: e(f"add rsp, {frame}")
    for r in reversed(saved): e(f"pop {r}")
    e("ret")
    func_end(name)

# ---------------------------------------------------------------------------
# Fp2 = Fp[u]/(u^2 + 1), an element being c0 then c1 (12 limbs), with lazy
# reduction: Fp products are kept as 768-bit integers, or fed unreduced into a
# Montgomery chain, and each coordinate of the result is reduced only once.
#   mul: Karatsuba.  P1 = a1*b1, D = K - P1, P0 = a0*b0 (768-bit, on the stack);
#        c0 = redc(P0 + D)                               = redc(a0b0 - a1b1 + K),
#        c1 = CIOS of (a0+a1)(b0+b1) started from D - P0 = redc(a0b1 + a1b0 + K),
#        where K = p*2^382 is a multiple of p that keeps both arguments positive;
#        they stay below p*2^384, so the results are < 1.5p before the final
#        conditional subtraction.
#   sqr: c0 = CIOS(a0+a1, a0+p-a1), c1 = CIOS(2a0, a1): operands < 2p, so the
#        products are < 4p^2 < p*2^384 and one subtraction ends each.
# The sums are not reduced (2p < 2^382).  The two reductions of each function are
# independent chains of six serial steps; they are emitted step by step in turn
# so that each one's multiplications fill the other's latency.
FP2_K = limbs(P << 382, 12)      # limbs 0..4 are zero
FP2_POOL = ["r8","r9","r10","r11","r12","r13","r14","r15","rbp","rcx","rsi","rdi"]
FP2_LO, FP2_H = "rax", "rbx"     # with rdx, the temporaries of every step

def mul_384(A, B, dst):
    """[rsp+dst] = A*B as 12 limbs (operand scanning): row i adds a*b[i] to a seven-limb
    window (low halves on the CF chain, high halves on the OF chain) and retires its lowest
    limb. A(j), B(i): operand strings; uses rax, rbx, rdx, r8..r14."""
    LO,H=FP2_LO,FP2_H
    t=["r8","r9","r10","r11","r12","r13","r14"]
    e(f"mov rdx, {B(0)}")
    e(f"mulx {t[1]}, {t[0]}, {A(0)}")
    for j in range(1,6):
        e(f"mulx {t[j+1]}, {LO}, {A(j)}")
        e(("add" if j==1 else "adc")+f" {t[j]}, {LO}")
    e(f"adc {t[6]}, 0")
    e(f"mov [rsp+{dst}], {t[0]}")
    for i in range(1,6):
        t=t[1:]+t[:1]            # t[j] = limb i+j; the retired register becomes limb i+6
        e(f"mov rdx, {B(i)}")
        e(f"xor {d32(t[6])}, {d32(t[6])}")
        for j in range(6):
            e(f"mulx {H}, {LO}, {A(j)}")
            e(f"adcx {t[j]}, {LO}")
            e(f"adox {t[j+1]}, {H}")
        e(f"adc {t[6]}, 0")
        e(f"mov [rsp+{dst+8*i}], {t[0]}")
    for j in range(1,7): e(f"mov [rsp+{dst+40+8*j}], {t[j]}")

def add_384(dst, X, Y):
    """[rsp+dst] = X + Y, six limbs, not reduced (X(j), Y(j): operand strings)."""
    t=["r8","r9","r10","r11","r12","r13"]
    for j in range(6): e(f"mov {t[j]}, {X(j)}")
    for j in range(6): e(("add" if j==0 else "adc")+f" {t[j]}, {Y(j)}")
    for j in range(6): e(f"mov [rsp+{dst+8*j}], {t[j]}")

class Chain:
    """A Montgomery computation run one 64-bit digit per step on a seven-register window:
    CIOS of A*B when A is given (A(j), B(i) operand strings), else the reduction of init alone.
    init(j): six limbs the window starts from (None: row 0 of the product starts it);
    hi(j): six limbs added before the final subtraction (None: nothing); off: where in r the
    result goes.  Between its steps a chain holds five registers; its top limb waits at
    [rsp+spill]."""
    def __init__(self, A, B, init, hi, off, spill):
        self.A, self.B, self.init, self.hi, self.off, self.spill = A, B, init, hi, off, spill
        self.w = None

def chain_step(ch, i, pool):
    M=".Lfp_m"; LO,H=FP2_LO,FP2_H
    if ch.w is None:
        t=[pool.pop(0) for _ in range(7)]
        if ch.init is not None:
            for j in range(6): e(f"mov {t[j]}, {ch.init(j)}")
            e(f"xor {d32(t[6])}, {d32(t[6])}")
        plain = ch.init is None
    else:
        t=ch.w+[pool.pop(0), pool.pop(0)]
        e(f"mov {t[5]}, [rsp+{ch.spill}]")
        e(f"xor {d32(t[6])}, {d32(t[6])}")
        plain = False
    if ch.A is not None:
        c(f"t += a*b[{i}]")
        e(f"mov rdx, {ch.B(i)}")
        if plain:
            e(f"mulx {t[1]}, {t[0]}, {ch.A(0)}")
            for j in range(1,6):
                e(f"mulx {t[j+1]}, {LO}, {ch.A(j)}")
                e(("add" if j==1 else "adc")+f" {t[j]}, {LO}")
        else:
            for j in range(6):
                e(f"mulx {H}, {LO}, {ch.A(j)}")
                e(f"adcx {t[j]}, {LO}")
                e(f"adox {t[j+1]}, {H}")
        e(f"adc {t[6]}, 0")
    c("q = t0*n0; t = (t + q*p) / 2^64")
    e(f"mov rdx, {t[0]}")
    e(f"imul rdx, qword ptr [rip+{M}_n0]")
    e(f"xor {d32(LO)}, {d32(LO)}")
    e(f"mulx {H}, {LO}, [rip+{M}]")
    e(f"adcx {t[0]}, {LO}")
    for j in range(1,6):
        e(f"adcx {t[j]}, {H}")
        e(f"mulx {H}, {LO}, [rip+{M}+{8*j}]")
        e(f"adox {t[j]}, {LO}")
    e(f"adcx {t[6]}, {H}")
    e(f"adox {t[6]}, {t[0]}")
    e(f"mov [rsp+{ch.spill}], {t[6]}")
    pool += [t[0], t[6]]         # t0 is now zero; the top limb waits on the stack
    ch.w=t[1:6]

def chain_finish(ch, pool, RP):
    """Add hi, subtract p if the result is >= p, store to r + ch.off."""
    M=".Lfp_m"
    w=ch.w+[pool.pop(0)]
    e(f"mov {w[5]}, [rsp+{ch.spill}]")
    if ch.hi is not None:
        for j in range(6): e(("add" if j==0 else "adc")+f" {w[j]}, {ch.hi(j)}")
    rp=pool.pop(0)
    e(f"mov {rp}, [rsp+{RP}]")
    free=[x for x in pool+[FP2_LO,FP2_H,"rdx"] if x not in w]
    cond_sub_store(6, M, w, free, f"{rp}+{ch.off}" if ch.off else rp)
    pool += w+[rp]

def chain_pair(X, Y, RP, PARK):
    """Runs X and Y step by step in turn, then finishes X (Y's registers parked at
    [rsp+PARK]) and Y."""
    pool=FP2_POOL[:]
    for i in range(6):
        for nm,ch in (("c1",X),("c0",Y)) if X.off else (("c0",X),("c1",Y)):
            c(f"{nm}, step {i}")
            chain_step(ch, i, pool)
    c("finish both: Y waits on the stack while X is stored")
    for j,r in enumerate(Y.w): e(f"mov [rsp+{PARK+8*j}], {r}")
    pool += Y.w
    chain_finish(X, pool, RP)
    Y.w=[pool.pop(0) for _ in range(5)]
    for j,r in enumerate(Y.w): e(f"mov {r}, [rsp+{PARK+8*j}]")
    chain_finish(Y, pool, RP)

def fp2_begin(name, doc, frame, RP):
    func_begin(name, doc)
    for r in ["rbp","rbx","r12","r13","r14","r15"]: e(f"push {r}")
    e(f"sub rsp, {frame}")
    e(f"mov [rsp+{RP}], rdi")
def fp2_end(name, frame):
    e(f"add rsp, {frame}")
    for r in reversed(["rbp","rbx","r12","r13","r14","r15"]): e(f"pop {r}")
    e("ret")
    func_end(name)

def fp2_mul(name):
    AA,BB,P0,P1,D,T0,Z,SPX,SPY,RP,PARK=0,48,96,192,288,384,480,576,584,592,600; frame=648
    fp2_begin(name, [f"void {name}(uint64_t r[12], const uint64_t a[12], const uint64_t b[12])",
                     "(a0 + a1 u)(b0 + b1 u): Karatsuba on 768-bit products, two reductions"],
              frame, RP)
    c(f"stack: a0+a1 at {AA}, b0+b1 at {BB}, P0 at {P0}, P1 at {P1}, D at {D}, P0+D at {T0},")
    c(f"D-P0 at {Z}, spilled top limbs at {SPX} and {SPY}, r at {RP}, parked limbs at {PARK}")
    e("mov rcx, rdx")
    c("a0 + a1, b0 + b1")
    add_384(AA, lambda j: f"[rsi+{8*j}]", lambda j: f"[rsi+{48+8*j}]")
    add_384(BB, lambda j: f"[rcx+{8*j}]", lambda j: f"[rcx+{48+8*j}]")
    c("P1 = a1*b1")
    mul_384(lambda j: f"[rsi+{48+8*j}]", lambda i: f"[rcx+{48+8*i}]", P1)
    c("D = K - P1 (limbs 0..4 of K are zero)")
    e("xor ebp, ebp")
    for k in range(12):
        e("mov rax, "+("rbp" if k<5 else f"[rip+.Lfp2_k+{8*(k-5)}]"))
        e(("sub" if k==0 else "sbb")+f" rax, [rsp+{P1+8*k}]")
        e(f"mov [rsp+{D+8*k}], rax")
    c("P0 = a0*b0 (the last reads of a and b)")
    mul_384(lambda j: f"[rsi+{8*j}]", lambda i: f"[rcx+{8*i}]", P0)
    c("P0 + D = a0b0 - a1b1 + K and D - P0 = K - a0b0 - a1b1")
    for k in range(12):
        e(f"mov rax, [rsp+{P0+8*k}]")
        e(("add" if k==0 else "adc")+f" rax, [rsp+{D+8*k}]")
        e(f"mov [rsp+{T0+8*k}], rax")
    for k in range(12):
        e(f"mov rax, [rsp+{D+8*k}]")
        e(("sub" if k==0 else "sbb")+f" rax, [rsp+{P0+8*k}]")
        e(f"mov [rsp+{Z+8*k}], rax")
    c("c1 = CIOS(a0+a1, b0+b1) from D - P0; c0 = reduction of P0 + D; interleaved")
    X=Chain(lambda j: f"[rsp+{AA+8*j}]", lambda i: f"[rsp+{BB+8*i}]",
            lambda j: f"[rsp+{Z+8*j}]", lambda j: f"[rsp+{Z+48+8*j}]", 48, SPX)
    Y=Chain(None, None, lambda j: f"[rsp+{T0+8*j}]", lambda j: f"[rsp+{T0+48+8*j}]", 0, SPY)
    chain_pair(X, Y, RP, PARK)
    fp2_end(name, frame)

def fp2_sqr(name):
    SA,SD,D2,A1,SPX,SPY,RP,PARK=0,48,96,144,192,200,208,216; frame=264
    fp2_begin(name, [f"void {name}(uint64_t r[12], const uint64_t a[12])",
                     "(a0 + a1 u)^2 = (a0+a1)(a0-a1) + 2a0a1 u: two interleaved CIOS chains"],
              frame, RP)
    c(f"stack: a0+a1 at {SA}, a0+p-a1 at {SD}, 2a0 at {D2}, a1 at {A1}, spilled top limbs")
    c(f"at {SPX} and {SPY}, r at {RP}, parked limbs at {PARK}")
    c("a0 + a1, a0 + p - a1, 2a0, a1: every read of a before r is written")
    add_384(SA, lambda j: f"[rsi+{8*j}]", lambda j: f"[rsi+{48+8*j}]")
    t=["r8","r9","r10","r11","r12","r13"]
    for j in range(6): e(f"mov {t[j]}, [rsi+{8*j}]")
    for j in range(6): e(("add" if j==0 else "adc")+f" {t[j]}, [rip+.Lfp_m+{8*j}]")
    for j in range(6): e(("sub" if j==0 else "sbb")+f" {t[j]}, [rsi+{48+8*j}]")
    for j in range(6): e(f"mov [rsp+{SD+8*j}], {t[j]}")
    add_384(D2, lambda j: f"[rsi+{8*j}]", lambda j: f"[rsi+{8*j}]")
    for j in range(6):
        e(f"mov rax, [rsi+{48+8*j}]")
        e(f"mov [rsp+{A1+8*j}], rax")
    X=Chain(lambda j: f"[rsp+{SA+8*j}]", lambda i: f"[rsp+{SD+8*i}]", None, None, 0, SPX)
    Y=Chain(lambda j: f"[rsp+{D2+8*j}]", lambda i: f"[rsp+{A1+8*i}]", None, None, 48, SPY)
    chain_pair(X, Y, RP, PARK)
    fp2_end(name, frame)

HEADER = r"""/*
 * mont_x86_64_adx.S - BLS12-381 Montgomery multiplication and squaring for
 * x86-64 CPUs with BMI2 (mulx) and ADX (adcx/adox).
 *
 *   void cuzk_fp_mul_adx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]);
 *   void cuzk_fp_sqr_adx(uint64_t r[6], const uint64_t a[6]);
 *   void cuzk_fr_mul_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
 *   void cuzk_fr_sqr_adx(uint64_t r[4], const uint64_t a[4]);
 *   void cuzk_fp2_mul_adx(uint64_t r[12], const uint64_t a[12], const uint64_t b[12]);
 *   void cuzk_fp2_sqr_adx(uint64_t r[12], const uint64_t a[12]);
 *
 * Fp: m = p (381 bits), R = 2^384.  Fr: m = r (255 bits), R = 2^256.
 * Inputs are little-endian limbs in Montgomery form and fully reduced (< m);
 * the output is a*b*R^-1 mod m (a*a*R^-1 mod m), fully reduced.  r may alias
 * a and/or b: every input limb is read before r is written.
 * System V ABI; no stack arguments; constants are RIP-relative (no GOT/PLT).
 * The caller must check CPUID for BMI2 and ADX before using these.
 *
 * mul: CIOS with 64-bit digits.  Two carry chains per pass (adcx = CF,
 *      adox = OF).  The product term lo(a0*b[i+1]) is added before the
 *      reduction of step i so the serial chain m_i -> m_{i+1} is only
 *      mulx.hi + add + imul; inside the reduction lo(m*m_{j+1}) is added to t_{j+1}
 *      before hi(m*m_j), since the low half of mulx is ready a cycle earlier.
 *      Both moduli leave spare top bits, so the running value fits in n+1 limbs
 *      (no extra carry word) and one conditional subtraction ends it.
 * sqr: full square (n(n-1)/2 cross products, doubled, plus n squares), then a
 *      separated Montgomery reduction of the low half with 128-bit digits
 *      M = (w0 + w1*2^64) * (-m^-1 mod 2^128) mod 2^128 (two passes per digit,
 *      the second one limb up), then + high half (< 2m) and one conditional
 *      subtraction.
 * fp2: Fp2 = Fp[u]/(u^2 + 1), 12 limbs (c0, c1), with lazy reduction (as blst's
 *      mul_mont_384x): 3 products and 2 reductions instead of 3 full Montgomery
 *      multiplications.  mul (Karatsuba): P1 = a1*b1 and P0 = a0*b0 as 768-bit
 *      integers, D = K - P1 with K = p*2^382; c0 = redc(P0 + D) and c1 = CIOS of
 *      (a0+a1)(b0+b1) started from D - P0, both arguments in (0, p*2^384).
 *      sqr: c0 = CIOS(a0+a1, a0+p-a1), c1 = CIOS(2a0, a1), operands < 2p.  Sums
 *      are not reduced (2p < 2^382).  The two reductions of each run as two
 *      chains emitted step by step in turn, so that they overlap; the idle
 *      chain keeps its top limb on the stack.
 *
 * Generated by scripts/gen-mont-adx.py; do not edit by hand. tests/test_field
 * compares every kernel with the portable C one on 10^5 random inputs, and
 * tests/test_ref_vectors replays the Python model's vectors through it.
 */
"""

def main():
    lab("/* SPDX-License-Identifier: MIT OR Apache-2.0 */")
    lab(HEADER.rstrip("\n"))
    lab("\t.intel_syntax noprefix\n\t.text")
    mont_mul("cuzk_fp_mul_adx","fp",endfix=True)
    mont_sqr("cuzk_fp_sqr_adx","fp")
    mont_mul("cuzk_fr_mul_adx","fr",endfix=False)
    mont_sqr("cuzk_fr_sqr_adx","fr")
    fp2_mul("cuzk_fp2_mul_adx")
    fp2_sqr("cuzk_fp2_sqr_adx")
    lab("\n\t.section .rodata\n\t.p2align 6")
    for F in ("fp","fr"):
        m_, n = CONST[F]
        lab(f".L{F}_m:"); [e(".quad 0x%016x"%x) for x in limbs(m_,n)]
        N = ninv(m_,128)
        lab(f".L{F}_m_n0:"); e(".quad 0x%016x"%(N & (2**64-1)))
        lab(f".L{F}_m_n1:"); e(".quad 0x%016x"%(N >> 64))
    lab(".Lzero:"); e(".quad 0")
    lab(".Lfp2_k:"); [e(".quad 0x%016x"%x) for x in FP2_K[5:]]
    lab('\n\t.section .note.GNU-stack,"",@progbits')
    print("\n".join(out))
main()
