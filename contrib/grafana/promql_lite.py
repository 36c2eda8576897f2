# SPDX-License-Identifier: MIT OR Apache-2.0
"""The part of PromQL that contrib/grafana/cuzk.json uses: a parser and a small evaluator.

tests/check_grafana.py parses every panel's expression with it (which names the metrics and
labels each one reads) and scripts/grafana-preview evaluates the same expressions over scrapes
of a running daemon. Anything outside this subset is refused with PromQLError, so a panel that
needs more must extend this file first.

Grammar (operators bind as in PromQL: comparisons < + - < * /):
  expr    := sum_ (CMP ["bool"] sum_)?           CMP: == != > < >= <=
  sum_    := prod (("+" | "-") prod)*
  prod    := unary (("*" | "/") unary)*
  unary   := "-" unary | atom
  atom    := NUMBER | "(" expr ")" | AGG [grouping] "(" expr ")" [grouping]
           | FUNC "(" expr ("," expr)* ")" | NAME ["{" matchers "}"] ["[" RANGE "]"]
  grouping:= ("by" | "without") "(" [LABEL ("," LABEL)*] ")"
  matchers:= LABEL ("=" | "!=" | "=~" | "!~") STRING ("," ...)*
  RANGE   := a duration (30s, 5m, 1h) or a Grafana variable ($__rate_interval, $__range)
Vector matching is one-to-one on every label but __name__ (no on/ignoring/group_left).
"""
import math
import re

AGGREGATIONS = {"sum", "max", "min", "avg", "count"}
# function -> argument kinds: "range" (a range selector), "vector", "scalar"
FUNCTIONS = {
    "rate": ("range",),
    "increase": ("range",),
    "irate": ("range",),
    "histogram_quantile": ("scalar", "vector"),
    "clamp_min": ("vector", "scalar"),
}
KEYWORDS = AGGREGATIONS | set(FUNCTIONS) | {"by", "without", "bool"}
DURATION = re.compile(r"(\d+)(ms|s|m|h|d|w|y)$")
UNIT_S = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800, "y": 31536000}


class PromQLError(ValueError):
    pass


# ---- AST ------------------------------------------------------------------------------------
class Number:
    def __init__(self, v):
        self.v = v


class Selector:
    def __init__(self, name, matchers, rng):
        self.name, self.matchers, self.range = name, matchers, rng  # matchers: [(label, op, value)]


class Call:
    def __init__(self, func, args):
        self.func, self.args = func, args


class Agg:
    def __init__(self, op, grouping, without, arg):
        self.op, self.grouping, self.without, self.arg = op, grouping, without, arg


class Binary:
    def __init__(self, op, lhs, rhs, bool_=False):
        self.op, self.lhs, self.rhs, self.bool = op, lhs, rhs, bool_


class Neg:
    def __init__(self, arg):
        self.arg = arg


# ---- lexer and parser -----------------------------------------------------------------------
TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<num>\d+\.\d*(?:[eE][-+]?\d+)?|\d*\.\d+(?:[eE][-+]?\d+)?|\d+(?:[eE][-+]?\d+)?)(?![a-zA-Z_])
  | (?P<dur>\d+(?:ms|s|m|h|d|w|y)|\$__\w+|\$\{__\w+\})
  | (?P<str>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')
  | (?P<name>[a-zA-Z_:][a-zA-Z0-9_:]*)
  | (?P<op>=~|!~|==|!=|>=|<=|[-+*/(){}\[\],=<>])
""", re.X)


def tokenize(text):
    out, i = [], 0
    while i < len(text):
        m = TOKEN.match(text, i)
        if not m:
            raise PromQLError(f"unexpected {text[i:i + 20]!r} at offset {i}")
        i = m.end()
        if m.lastgroup != "ws":
            out.append((m.lastgroup, m.group()))
    out.append(("end", ""))
    return out


class Parser:
    def __init__(self, text):
        self.text, self.t, self.i = text, tokenize(text), 0

    def peek(self, k=0):
        return self.t[self.i + k]

    def take(self, kind=None, value=None):
        tk = self.t[self.i]
        if (kind and tk[0] != kind) or (value is not None and tk[1] != value):
            raise PromQLError(f"expected {value or kind}, found {tk[1] or 'the end'!r} in {self.text!r}")
        self.i += 1
        return tk

    def is_(self, kind, value=None):
        tk = self.t[self.i]
        return tk[0] == kind and (value is None or tk[1] == value)

    def parse(self):
        e = self.expr()
        self.take("end")
        return e

    def expr(self):
        lhs = self.sum_()
        if self.is_("op") and self.peek()[1] in ("==", "!=", ">", "<", ">=", "<="):
            op = self.take()[1]
            b = False
            if self.is_("name", "bool"):
                self.take()
                b = True
            return Binary(op, lhs, self.sum_(), b)
        return lhs

    def sum_(self):
        e = self.prod()
        while self.is_("op") and self.peek()[1] in "+-":
            op = self.take()[1]
            e = Binary(op, e, self.prod())
        return e

    def prod(self):
        e = self.unary()
        while self.is_("op") and self.peek()[1] in "*/":
            op = self.take()[1]
            e = Binary(op, e, self.unary())
        return e

    def unary(self):
        if self.is_("op", "-"):
            self.take()
            return Neg(self.unary())
        return self.atom()

    def grouping(self):
        kw = self.take("name")[1]
        self.take("op", "(")
        labels = []
        while not self.is_("op", ")"):
            labels.append(self.take("name")[1])
            if not self.is_("op", ")"):
                self.take("op", ",")
        self.take("op", ")")
        return labels, kw == "without"

    def atom(self):
        kind, val = self.peek()
        if kind == "num":
            self.take()
            return Number(float(val))
        if kind == "op" and val == "(":
            self.take()
            e = self.expr()
            self.take("op", ")")
            return e
        if kind != "name":
            raise PromQLError(f"unexpected {val or 'end'!r} in {self.text!r}")
        self.take()
        if val in AGGREGATIONS:
            grouping, without = None, False
            if self.is_("name", "by") or self.is_("name", "without"):
                grouping, without = self.grouping()
            self.take("op", "(")
            arg = self.expr()
            self.take("op", ")")
            if grouping is None and (self.is_("name", "by") or self.is_("name", "without")):
                grouping, without = self.grouping()
            return Agg(val, grouping, without, arg)
        if val in FUNCTIONS:
            self.take("op", "(")
            args = [self.expr()]
            while self.is_("op", ","):
                self.take()
                args.append(self.expr())
            self.take("op", ")")
            kinds = FUNCTIONS[val]
            if len(args) != len(kinds):
                raise PromQLError(f"{val} takes {len(kinds)} arguments in {self.text!r}")
            for a, k in zip(args, kinds):
                if (k == "range") != (isinstance(a, Selector) and a.range is not None):
                    raise PromQLError(f"{val} needs a range selector in {self.text!r}")
            return Call(val, args)
        if val in KEYWORDS or self.is_("op", "("):
            raise PromQLError(f"unsupported function or keyword {val!r} in {self.text!r}")
        matchers = []
        if self.is_("op", "{"):
            self.take()
            while not self.is_("op", "}"):
                label = self.take("name")[1]
                op = self.take("op")[1]
                if op not in ("=", "!=", "=~", "!~"):
                    raise PromQLError(f"bad matcher operator {op!r} in {self.text!r}")
                s = self.take("str")[1]
                matchers.append((label, op, re.sub(r"\\(.)", r"\1", s[1:-1])))
                if not self.is_("op", "}"):
                    self.take("op", ",")
            self.take("op", "}")
        rng = None
        if self.is_("op", "["):
            self.take()
            rng = self.take("dur")[1]
            self.take("op", "]")
        return Selector(val, matchers, rng)


def parse(text):
    """The AST of one expression; PromQLError if it is outside the subset."""
    return Parser(text).parse()


def walk(node, ctx=()):
    """Yields (node, ctx) for every node; ctx is the tuple of enclosing Call/Agg nodes."""
    yield node, ctx
    inner = ctx + (node,) if isinstance(node, (Call, Agg)) else ctx
    kids = {Call: lambda n: n.args, Agg: lambda n: [n.arg], Binary: lambda n: [n.lhs, n.rhs],
            Neg: lambda n: [n.arg]}.get(type(node), lambda n: [])(node)
    for k in kids:
        yield from walk(k, inner)


# ---- evaluation over scrapes ----------------------------------------------------------------
def parse_exposition(text):
    """Prometheus text format 0.0.4 -> {frozenset of (label, value) incl. __name__: value}."""
    out = {}
    line_re = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)')
    label_re = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = line_re.match(line)
        if not m:
            continue
        labels = {"__name__": m.group(1)}
        for lm in label_re.finditer(m.group(2) or ""):
            labels[lm.group(1)] = re.sub(r"\\(.)", lambda x: {"n": "\n"}.get(x.group(1), x.group(1)),
                                         lm.group(2))
        v = m.group(3)
        out[frozenset(labels.items())] = float("inf") if v == "+Inf" else float(v)
    return out


def seconds(dur, variables):
    if dur.startswith("$"):
        key = dur.strip("${}")
        if key not in variables:
            raise PromQLError(f"no value for {dur}")
        return variables[key]
    m = DURATION.match(dur)
    return int(m.group(1)) * UNIT_S[m.group(2)]


def _match(labels, matchers):
    for label, op, value in matchers:
        have = labels.get(label, "")
        if op == "=" and have != value or op == "!=" and have == value:
            return False
        if op in ("=~", "!~") and (re.fullmatch(value, have) is not None) != (op == "=~"):
            return False
    return True


def _drop_name(key):
    return frozenset((k, v) for k, v in key if k != "__name__")


def _histogram_quantile(q, vec):
    groups = {}
    for key, v in vec.items():
        d = dict(key)
        if "le" not in d:
            continue
        le_text = d.pop("le")
        le = float("inf") if le_text == "+Inf" else float(le_text)
        d.pop("__name__", None)
        groups.setdefault(frozenset(d.items()), []).append((le, v))
    out = {}
    for g, buckets in groups.items():
        buckets.sort()
        total = buckets[-1][1] if buckets and math.isinf(buckets[-1][0]) else float("nan")
        if not total or math.isnan(total):
            out[g] = float("nan")
            continue
        rank = q * total
        prev_le, prev_c = 0.0, 0.0
        val = float("nan")
        for le, c in buckets:
            if c >= rank:
                if math.isinf(le):
                    val = prev_le  # the highest finite bound, as Prometheus
                else:
                    val = prev_le + (le - prev_le) * ((rank - prev_c) / (c - prev_c) if c > prev_c else 1)
                break
            prev_le, prev_c = le, c
        out[g] = val
    return out


def _binop(op, a, b):
    if op in "+-*/":
        if op == "/":
            if b == 0:
                return float("nan") if a == 0 or math.isnan(a) else math.copysign(float("inf"), a)
            return a / b
        return {"+": a + b, "-": a - b, "*": a * b}[op]
    return {"==": a == b, "!=": a != b, ">": a > b, "<": a < b, ">=": a >= b, "<=": a <= b}[op]


def evaluate(node, scrapes, t, variables):
    """Evaluates node at time t over scrapes, a time-ordered list of (time, parse_exposition()
    result). Returns a float (scalar) or {label key without __name__ where dropped: value}."""
    if isinstance(node, Number):
        return node.v
    if isinstance(node, Neg):
        v = evaluate(node.arg, scrapes, t, variables)
        return -v if isinstance(v, float) else {k: -x for k, x in v.items()}
    if isinstance(node, Selector):
        if node.range is not None:
            raise PromQLError("a range selector outside rate/increase/irate")
        now = [s for ts, s in scrapes if ts <= t]
        if not now:
            return {}
        return {k: v for k, v in now[-1].items()
                if dict(k)["__name__"] == node.name and _match(dict(k), node.matchers)}
    if isinstance(node, Call):
        if node.func in ("rate", "increase", "irate"):
            sel = node.args[0]
            window = seconds(sel.range, variables)
            pts = [(ts, s) for ts, s in scrapes if t - window < ts <= t]
            series = {}
            for ts, s in pts:
                for k, v in s.items():
                    d = dict(k)
                    if d["__name__"] == sel.name and _match(d, sel.matchers):
                        series.setdefault(k, []).append((ts, v))
            out = {}
            for k, p in series.items():
                if len(p) < 2:
                    continue
                if node.func == "irate":
                    p = p[-2:]
                delta = 0.0
                for (_, v0), (_, v1) in zip(p, p[1:]):
                    delta += v1 - v0 if v1 >= v0 else v1  # a counter reset starts from 0
                span = p[-1][0] - p[0][0]
                out[_drop_name(k)] = delta / span if node.func != "increase" else delta * window / span
            return out
        if node.func == "histogram_quantile":
            return _histogram_quantile(evaluate(node.args[0], scrapes, t, variables),
                                       evaluate(node.args[1], scrapes, t, variables))
        if node.func == "clamp_min":
            v = evaluate(node.args[0], scrapes, t, variables)
            lo = evaluate(node.args[1], scrapes, t, variables)
            return {k: max(x, lo) for k, x in v.items()}
    if isinstance(node, Agg):
        v = evaluate(node.arg, scrapes, t, variables)
        groups = {}
        for k, x in v.items():
            d = dict(k)
            if node.without:
                g = {a: b for a, b in d.items() if a not in node.grouping and a != "__name__"}
            else:
                g = {a: d[a] for a in (node.grouping or []) if a in d}
            groups.setdefault(frozenset(g.items()), []).append(x)
        f = {"sum": sum, "max": max, "min": min, "count": len,
             "avg": lambda xs: sum(xs) / len(xs)}[node.op]
        return {g: float(f(xs)) for g, xs in groups.items()}
    if isinstance(node, Binary):
        a = evaluate(node.lhs, scrapes, t, variables)
        b = evaluate(node.rhs, scrapes, t, variables)
        cmp = node.op not in "+-*/"
        if isinstance(a, float) and isinstance(b, float):
            return float(_binop(node.op, a, b))
        if isinstance(a, float) or isinstance(b, float):
            vec, sc, left = (b, a, False) if isinstance(a, float) else (a, b, True)
            out = {}
            for k, x in vec.items():
                r = _binop(node.op, x, sc) if left else _binop(node.op, sc, x)
                key = k if cmp and not node.bool else _drop_name(k)
                if cmp and not node.bool:
                    if r:
                        out[key] = x
                else:
                    out[key] = float(r)
            return out
        bn = {_drop_name(k): (k, x) for k, x in b.items()}
        out = {}
        for k, x in a.items():
            m = bn.get(_drop_name(k))
            if m is None:
                continue
            r = _binop(node.op, x, m[1])
            if cmp and not node.bool:
                if r:
                    out[k] = x
            else:
                out[_drop_name(k)] = float(r)
        return out
    raise PromQLError(f"cannot evaluate {type(node).__name__}")
