#!/usr/bin/env python3
"""fpcore_corpus.py UB CORPUS: run `ulpbench explain` on every core of an
FPCore corpus at its :example inputs and check the reference it prints.

Each core is checked against two sources that are not ulpbench:
  * :ulpbench-expect VALUE, a value derived by hand (the corpus says how in
    a comment beside it); the reference must be VALUE rounded to the dtype;
  * an FPCore evaluator of this file's own, in mpmath at 320 bits, rounded
    to the dtype by the rounding function below (round-to-nearest-even with
    subnormals and overflow, written from IEEE 754's definition).
:ulpbench-kernel VALUE, where given, is what the generated kernel (mode
nofma) must compute: the body, where :spec gives the reference.
The dtype is the core's :precision, binary64 where it has none (FPCore's
default).  Prints one line per failure and exits 1 if any.
"""
import fractions
import math
import re
import struct
import subprocess
import sys

import mpmath

mpmath.mp.prec = 320
mpf = mpmath.mpf
F = fractions.Fraction

# name: (precision bits, emin, emax, dtype, struct code)
FORMATS = {
    "binary64": (53, -1022, 1023, "f64"),
    "binary32": (24, -126, 127, "f32"),
    "binary16": (11, -14, 15, "f16"),
    "bfloat16": (8, -126, 127, "bf16"),
}
FLOAT_NAMES = {(11, 64): "binary64", (8, 32): "binary32", (5, 16): "binary16",
               (8, 16): "bfloat16"}

# ---- s-expressions ---------------------------------------------------------

TOKEN = re.compile(r'\s+|;[^\n]*|"(?:[^"\\]|\\.)*"|[()\[\]#]|[^\s()\[\];"#]+')


def read_all(text):
    toks = [t for t in TOKEN.findall(text) if t.strip() and not t.startswith(";")]
    pos = 0

    def one():
        nonlocal pos
        t = toks[pos]
        pos += 1
        if t == "#":  # FPCore 2.0: #e is (! :precision integer e)
            return ["!", ":precision", "integer", one()]
        if t in "([":
            out = []
            while toks[pos] not in ")]":
                out.append(one())
            pos += 1
            return out
        return t

    forms = []
    while pos < len(toks):
        forms.append(one())
    return forms


# ---- values ----------------------------------------------------------------
# Numbers are mpf; booleans are bool.  mpmath has no signed zero, so -0 is
# the object NEG0, kept by negation, fabs, copysign and signbit (all the
# corpus needs) and read as 0 everywhere else.


class NegZero:
    pass


NEG0 = NegZero()


def num(v):
    return mpf(0) if v is NEG0 else v


def is_neg(v):
    return v is NEG0 or (not mpmath.isnan(v) and v < 0)


def round_to(v, fmt, rnd="nearestEven"):
    """v rounded in format fmt (p, emin, emax), or to an integer (fmt
    "integer"), in direction rnd (FPCore's :round): an mpf, NEG0 for a
    negative value that rounds to zero.  Written from IEEE 754's
    definitions: the quantum at v, then floor or ceiling of v over it; a
    tie to even; overflow to inf in the direction that leads there, to the
    largest finite number in the others."""
    if v is NEG0 or fmt is None:
        return v
    if mpmath.isnan(v) or mpmath.isinf(v) or v == 0:
        return v
    neg = v < 0
    a = abs(v)
    if fmt == "integer":
        q = mpf(1)
        big = None
    else:
        p, emin, emax = fmt[:3]
        e = int(mpmath.floor(mpmath.log(a, 2)))
        while mpf(2) ** e > a:  # log2 near a power of two
            e -= 1
        while mpf(2) ** (e + 1) <= a:
            e += 1
        q = mpf(2) ** (max(e, emin) - p + 1)  # the quantum at a
        big = (mpf(2) ** (p) - 1) * mpf(2) ** (emax - p + 1)  # largest finite
    s = a / q
    f = mpmath.floor(s)
    r = s - f
    # the magnitude's direction: away (up) or toward zero (down)
    up = {"toPositive": not neg, "toNegative": neg, "toZero": False}
    if rnd == "nearestEven":
        away = r > 0.5 or (r == 0.5 and int(f) % 2 == 1)
    else:
        away = r > 0 and up[rnd]
    if away:
        f += 1
    out = f * q
    if big is not None and out > big:
        # past the largest finite: nearest rounds to inf from half an ulp
        # past it (2^(emax+1)), the directions as they lead
        if rnd == "nearestEven":
            out = mpmath.inf if out >= mpf(2) ** (emax + 1) else big
        else:
            out = mpmath.inf if up[rnd] else big
    if out == 0:
        return NEG0 if neg else mpf(0)
    return -out if neg else out


def literal(tok):
    """The exact value of a numeric token, or None (Herbie's 0.5f0 is
    0.5e0)."""
    if re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)[fF][-+]?\d+", tok):
        tok = re.sub("[fF]", "e", tok)
    try:
        if re.fullmatch(r"[-+]?0[xX][0-9a-fA-F.]+([pP][-+]?\d+)?", tok):
            return mpf(float.fromhex(tok))
        if re.fullmatch(r"[-+]?\d+/\d+", tok):
            n, d = tok.split("/")
            return mpf(int(n)) / int(d)
        if re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", tok):
            x = F(tok)
            if x == 0 and tok.startswith("-"):
                return NEG0
            return mpf(x.numerator) / x.denominator
    except ValueError:
        return None
    return None


def exact(v):
    """An mpf (finite) as an exact Fraction."""
    sign, man, e, _ = mpmath.mpf(v)._mpf_
    m, e = -int(man) if sign else int(man), int(e)  # plain ints whatever the backend
    return F(m) * (F(2) ** e) if e >= 0 else F(m, 2 ** -e)


def nearest_even_int(x):
    f = math.floor(x)
    r = x - f
    return f + 1 if r > F(1, 2) or (r == F(1, 2) and f % 2) else f


# ---- the evaluator ---------------------------------------------------------

CONST = {
    "E": mpmath.e, "LOG2E": 1 / mpmath.log(2), "LOG10E": 1 / mpmath.log(10),
    "LN2": mpmath.log(2), "LN10": mpmath.log(10), "PI": mpmath.pi,
    "PI_2": mpmath.pi / 2, "PI_4": mpmath.pi / 4, "M_1_PI": 1 / mpmath.pi,
    "M_2_PI": 2 / mpmath.pi, "M_2_SQRTPI": 2 / mpmath.sqrt(mpmath.pi),
    "SQRT2": mpmath.sqrt(2), "SQRT1_2": mpmath.sqrt(F(1, 2)),
    "INFINITY": mpmath.inf, "NAN": mpmath.nan, "TRUE": True, "FALSE": False,
}


def div(x, y):
    if y == 0:
        if x == 0 or mpmath.isnan(x):
            return mpmath.nan
        return mpmath.inf if (x > 0) else -mpmath.inf
    return x / y


def fmod(x, y, nearest):
    if mpmath.isinf(x) or y == 0 or mpmath.isnan(x) or mpmath.isnan(y):
        return mpmath.nan
    if mpmath.isinf(y):
        return x
    ex, ey = exact(x), exact(y)
    q = ex / ey
    n = nearest_even_int(q) if nearest else math.trunc(q)
    r = ex - n * ey
    return mpf(r.numerator) / r.denominator


def rounding_int(x, how):
    if mpmath.isnan(x) or mpmath.isinf(x):
        return x
    e = exact(x)
    if how == "round":
        n = math.floor(abs(e) + F(1, 2)) * (1 if e >= 0 else -1)
    elif how == "nearbyint":
        n = nearest_even_int(e)
    else:
        n = {"floor": math.floor, "ceil": math.ceil, "trunc": math.trunc}[how](e)
    return mpf(n)


def lgamma(x):
    g = mpmath.gamma(x)
    return mpmath.log(abs(g))


FN = {
    "sqrt": mpmath.sqrt, "exp": mpmath.exp, "exp2": lambda x: mpf(2) ** x,
    "expm1": mpmath.expm1, "log": mpmath.log, "log2": lambda x: mpmath.log(x, 2),
    "log10": mpmath.log10, "log1p": mpmath.log1p, "sin": mpmath.sin,
    "cos": mpmath.cos, "tan": mpmath.tan, "asin": mpmath.asin,
    "acos": mpmath.acos, "atan": mpmath.atan, "sinh": mpmath.sinh,
    "cosh": mpmath.cosh, "tanh": mpmath.tanh, "asinh": mpmath.asinh,
    "acosh": mpmath.acosh, "atanh": mpmath.atanh, "erf": mpmath.erf,
    "erfc": mpmath.erfc, "tgamma": mpmath.gamma, "lgamma": lgamma,
    "cbrt": lambda x: mpmath.cbrt(abs(x)) * (-1 if x < 0 else 1),
    "fma": lambda x, y, z: x * y + z,
    "hypot": lambda x, y: mpmath.sqrt(x * x + y * y),
    "pow": mpmath.power, "atan2": mpmath.atan2,
    "fmin": lambda x, y: y if mpmath.isnan(x) else x if mpmath.isnan(y) else min(x, y),
    "fmax": lambda x, y: y if mpmath.isnan(x) else x if mpmath.isnan(y) else max(x, y),
    "fdim": lambda x, y: x - y if x > y else mpf(0),
    "fmod": lambda x, y: fmod(x, y, False),
    "remainder": lambda x, y: fmod(x, y, True),
}
for _r in ("floor", "ceil", "trunc", "round", "nearbyint"):
    FN[_r] = (lambda how: lambda x: rounding_int(x, how))(_r)

CMP = {"<": lambda a, b: a < b, ">": lambda a, b: a > b, "<=": lambda a, b: a <= b,
       ">=": lambda a, b: a >= b, "==": lambda a, b: a == b}


def compare(op, vals):
    vals = [num(v) for v in vals]
    if op == "!=":  # every pair differs; NaN differs from everything
        return all(mpmath.isnan(a) or mpmath.isnan(b) or a != b
                   for i, a in enumerate(vals) for b in vals[i + 1:])
    if any(mpmath.isnan(v) for v in vals):
        return False
    return all(CMP[op](a, b) for a, b in zip(vals, vals[1:]))


class Core:
    def __init__(self, form):
        rest = form[1:]
        self.name = rest.pop(0) if isinstance(rest[0], str) else None
        self.args = rest.pop(0)
        self.props = {}
        while len(rest) > 1 and isinstance(rest[0], str) and rest[0].startswith(":"):
            self.props.setdefault(rest[0], rest[1])
            rest = rest[2:]
        self.body = rest[0]
        label = self.props.get(":name", self.name)
        self.label = label.strip('"') if label else None
        self.cores = {}  # the file's named cores, for calls (main sets it)

    def fmt(self, prec):
        if prec in (None, "real"):
            return None
        if prec == "integer":
            return "integer"
        if isinstance(prec, list):
            prec = FLOAT_NAMES[(int(prec[1]), int(prec[2]))]
        return FORMATS[prec]


BUILTIN = set(FN) | set(CMP) | {
    "+", "-", "*", "/", "!=", "and", "or", "not", "if", "let", "let*", "while",
    "while*", "digits", "cast", "!", "fabs", "copysign", "isfinite", "isinf",
    "isnan", "isnormal", "signbit"}

# A rounding context is (format, direction): format None for real (no
# rounding), "integer", or a FORMATS entry; direction FPCore's :round.
REAL = (None, "nearestEven")


def annotated(prec_list, ctx, core):
    """(! :precision P :round R ... e) -> (context, e)."""
    fmt, rnd = ctx
    i = 1
    while i + 1 < len(prec_list) and prec_list[i].startswith(":"):
        if prec_list[i] == ":precision":
            fmt = core.fmt(prec_list[i + 1])
        if prec_list[i] == ":round":
            rnd = prec_list[i + 1]
        i += 2
    return (fmt, rnd), prec_list[i]


def rnd_in(v, ctx):
    return round_to(v, ctx[0], ctx[1])


def call(e, env, ctx, core, out_fmt):
    """(f a b ...) of a named core f of the file: its body with its
    arguments bound to the values (rounded to an annotated argument's
    format), in the caller's context."""
    callee = core.cores[e[0]]
    env2 = {}
    for param, arg in zip(callee.args, e[1:]):
        v = ev(arg, env, ctx, core, out_fmt)
        if isinstance(param, list):
            (fmt, _), param = annotated(param, REAL, callee)
            v = round_to(num(v), fmt)
        env2[param] = v
    callee.cores = core.cores
    return ev(callee.body, env2, ctx, callee, out_fmt)


def sum_sign(op, acc, ctx):
    """IEEE 754: an exact zero sum is -0 toward -inf (unless both operands
    are +0), +0 in the other directions (acc: the rounded zero)."""
    if ctx[0] is None or ctx[1] != "toNegative" or op not in "+-":
        return acc
    return NEG0


def ev(e, env, ctx, core, out_fmt):
    """e in env; ctx the rounding context (REAL: none)."""
    if isinstance(e, str):
        if e in env:
            return env[e]
        if e in CONST:
            c = CONST[e]
            return c if isinstance(c, bool) else rnd_in(c, ctx)
        v = literal(e)
        if v is None:
            raise ValueError("unknown symbol " + e)
        return rnd_in(v, ctx)
    op, a = e[0], e[1:]
    rec = lambda x, env=env, c=ctx: ev(x, env, c, core, out_fmt)
    if op == "!":
        c2, inner = annotated(e, ctx, core)
        return rec(inner, env, c2)
    if op in core.cores and op not in BUILTIN:
        return call(e, env, ctx, core, out_fmt)
    if op == "if":
        return rec(a[1]) if rec(a[0]) else rec(a[2])
    if op in ("let", "let*"):
        env2 = dict(env)
        for name, val in a[0]:
            env2[name] = rec(val, env2 if op == "let*" else env)
        return rec(a[1], env2)
    if op in ("while", "while*"):
        return loop(op == "while*", a, env, rec)
    if op == "digits":
        m, ex, b = (int(x) for x in a)
        return rnd_in(mpf(m) * mpf(b) ** ex, ctx)
    if op == "cast":
        return rnd_in(num(rec(a[0])), ctx)
    if op in CMP or op == "!=":
        return compare(op, [rec(x) for x in a])
    if op == "and":
        return all(rec(x) for x in a)
    if op == "or":
        return any(rec(x) for x in a)
    if op == "not":
        return not rec(a[0])
    vals = [rec(x) for x in a]
    fmt = ctx[0] if ctx[0] != "integer" else None
    if op in ("isfinite", "isinf", "isnan", "isnormal", "signbit"):
        return predicate(op, vals[0], fmt or out_fmt)
    if op == "-" and len(vals) == 1:
        v = vals[0]
        return mpf(0) if v is NEG0 else NEG0 if v == 0 else -v
    if op == "fabs":
        return mpf(0) if vals[0] is NEG0 else abs(vals[0])
    if op == "copysign":
        mag = abs(num(vals[0]))
        if is_neg(vals[1]):
            return NEG0 if mag == 0 else -mag
        return mag
    if op in ("+", "*") and len(vals) == 1:  # Herbie's (* x), (+ x)
        return vals[0]
    if op == "/" and len(vals) == 1:  # Herbie's (/ x): 1/x
        vals = [mpf(1)] + vals
    signed = vals
    vals = [num(v) for v in vals]
    if op in "+-*/" and len(op) == 1:
        f = {"+": lambda x, y: x + y, "-": lambda x, y: x - y,
             "*": lambda x, y: x * y, "/": div}[op]
        acc = signed[0]
        for v, sv in zip(vals[1:], signed[1:]):
            both_pos0 = (num(acc) == 0 and not is_neg(acc) and v == 0 and
                         is_neg(sv) == (op == "-"))
            exact = f(num(acc), v)
            acc = rnd_in(exact, ctx)
            if exact == 0 and not both_pos0:
                acc = sum_sign(op, acc, ctx)
        return acc
    return rnd_in(FN[op](*vals), ctx)


def predicate(op, v, fmt):
    if op == "signbit":
        return is_neg(v)
    v = num(v)
    if op == "isnan":
        return bool(mpmath.isnan(v))
    if op == "isinf":
        return bool(mpmath.isinf(v))
    if op == "isfinite":
        return not (mpmath.isnan(v) or mpmath.isinf(v))
    finite = not (mpmath.isnan(v) or mpmath.isinf(v))
    return finite and v != 0 and abs(v) >= mpf(2) ** fmt[1]


def loop(sequential, a, env, rec):
    test, binds, result = a
    env2 = dict(env)
    for name, init, _ in binds:
        env2[name] = rec(init, env2 if sequential else env)
    steps = 0
    while rec(test, env2):
        old = dict(env2)
        for name, _, update in binds:
            env2[name] = rec(update, env2 if sequential else old)
        steps += 1
        if steps > 10000000:
            raise ValueError("loop did not end")
    return rec(result, env2)


# ---- encodings -------------------------------------------------------------


def encode(x, dtype):
    """A Python float (exact in dtype) as the dtype's bits."""
    if dtype == "f64":
        return struct.unpack(">Q", struct.pack(">d", x))[0], 16
    if dtype == "f32":
        return struct.unpack(">I", struct.pack(">f", x))[0], 8
    if dtype == "f16":
        return struct.unpack(">H", struct.pack(">e", x))[0], 4
    return struct.unpack(">I", struct.pack(">f", x))[0] >> 16, 4


def to_float(v):
    if v is NEG0:
        return -0.0
    if mpmath.isnan(v):
        return math.nan
    return float(v)


def decode(bits, dtype):
    if dtype == "f64":
        return struct.unpack(">d", struct.pack(">Q", bits))[0]
    if dtype == "f32":
        return struct.unpack(">f", struct.pack(">I", bits))[0]
    if dtype == "f16":
        return struct.unpack(">e", struct.pack(">H", bits))[0]
    return struct.unpack(">f", struct.pack(">I", bits << 16))[0]


def same(a, b):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1, a) == math.copysign(1, b)


def expect_value(text, fmt):
    text = text.strip('"')
    if text in ("inf", "-inf", "nan", "-0"):
        return float(text)
    v = literal(text)
    return to_float(round_to(v, fmt))


# ---- one core --------------------------------------------------------------


def check(ub, corpus, core, failures):
    prec = core.props.get(":precision", "binary64")
    fmt = core.fmt(prec)
    dtype = fmt[3]
    env, at = {}, []
    for name, val in core.props.get(":example", []):
        v = literal(val)
        arg_fmt = fmt
        for a in core.args:  # an annotated argument: its own format
            if isinstance(a, list) and a[-1] == name:
                (arg_fmt, _), _ = annotated(a, (fmt, "nearestEven"), core)
        # the input is the example's value rounded to the argument's format
        env[name] = v = round_to(v, arg_fmt)
        bits, width = encode(to_float(v), dtype)
        at.append("%s=0x%0*x" % (name, width, bits))
    # a core without arguments is one element: explain takes no --at
    cmd = [ub, "explain", "--catalog", corpus, "--op", core.label, "--dtype", dtype,
           "--mode", "nofma"] + (["--at", ",".join(at)] if at else [])
    out = subprocess.run(cmd, capture_output=True, text=True)
    ref = re.search(r"^  correctly rounded  0x([0-9a-f]+)", out.stdout, re.M)
    got = re.search(r"^  result  0x([0-9a-f]+)", out.stdout, re.M)
    if out.returncode != 0 or not ref or not got:
        failures.append("%s: explain exit %d: %s" % (core.label, out.returncode,
                                                     out.stderr.strip()[:300]))
        return
    ref = decode(int(ref.group(1), 16), dtype)
    got = decode(int(got.group(1), 16), dtype)
    spec = core.props.get(":spec", core.body)
    mine = to_float(round_to(num_or_bool(ev(spec, env, REAL, core, fmt)), fmt))
    if not same(ref, mine):
        failures.append("%s: reference %r, mpmath %r" % (core.label, ref, mine))
    if ":ulpbench-expect" in core.props:
        want = expect_value(core.props[":ulpbench-expect"], fmt)
        if not same(ref, want):
            failures.append("%s: reference %r, by hand %r" % (core.label, ref, want))
    if ":ulpbench-kernel" in core.props:
        want = expect_value(core.props[":ulpbench-kernel"], fmt)
        if not same(got, want):
            failures.append("%s: kernel %r, by hand %r" % (core.label, got, want))


def num_or_bool(v):
    if isinstance(v, bool):
        raise ValueError("a condition as the result")
    return v


def main():
    ub, corpus = sys.argv[1], sys.argv[2]
    with open(corpus) as f:
        forms = read_all(f.read())
    failures, n = [], 0
    cores = [Core(form) for form in forms]
    named = {c.name: c for c in cores if c.name}
    for core in cores:
        core.cores = named
    for core in cores:
        try:
            check(ub, corpus, core, failures)
        except (ValueError, KeyError, TypeError) as err:
            failures.append("%s: the evaluator: %s" % (core.label, err))
        n += 1
    for line in failures:
        print("FAIL: " + line)
    print("%d cores, %d failures" % (n, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
