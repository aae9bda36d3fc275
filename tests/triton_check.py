"""triton_check.py - inputs for tests/triton.test and an independent host
computation of what the Triton kernels of tests/data/triton/atan_bwd.py
must give, element by element.

  triton_check.py make DIR     writes DIR/x.npy, g.npy (f32), xb.npy,
                               gb.npy (bf16 bits, <u2) and xh.npy, gh.npy (f16)
  triton_check.py check DIR    reads ulpbench's --dump files in DIR/f32 and
                               DIR/bf16-* and compares; prints one line per
                               finding, exit 1 on a mismatch
  triton_check.py check16 DIR  the same for DIR/f16-once

The host side uses only numpy float32 arithmetic (IEEE binary32, each
operation correctly rounded: numpy neither contracts a*b+c nor keeps extra
precision), exact rationals (fractions) for the one fused x*x + 1, and
integer round-to-nearest-even for float32 -> bf16, and numpy's float32 ->
float16 conversion (round to nearest even, subnormals and overflow as
IEEE says).  Nothing is taken from
ulpbench's own output except the values under test.
"""
import sys
from fractions import Fraction

import numpy as np

np.seterr(all="ignore")

# x = 1 + k 2^-23 with g = 1: x*x rounds to float32 (its k^2 2^-46 part is
# lost below ulp(1) = 2^-23) before +1 in PyTorch's kernels, while the
# fused x*x + 1 keeps it; the two denominators are one ulp of 2 apart and
# the quotients 0.5-ish differ by one ulp (worked with exact rationals:
# k = 3000: 0x1.ffd124p-2 torch, 0x1.ffd12p-2 fused; k = 5000:
# 0x1.ffb1e4p-2 torch, 0x1.ffb1e8p-2 fused).  check() derives them again.
PICKED = [0x3F800000 + 3000, 0x3F800000 + 5000]


def sample(n, seed):
    """n float32 bit patterns: special values, then every binade."""
    rng = np.random.default_rng(seed)
    special = [0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x00800000,
               0x3F800000, 0xBF800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000,
               0xFF800000, 0x7FC00000, 0x5F800000, 0x1F800000, 0x3F800001]
    rest = rng.integers(0, 2**32, n - len(special), dtype=np.uint64)
    return np.concatenate([np.array(special, np.uint64), rest]).astype(np.uint32)


def make(d):
    n = 4000
    x = sample(n, 11)
    g = sample(n, 12)
    x[-len(PICKED):] = PICKED
    g[-len(PICKED):] = 0x3F800000
    np.save(d + "/x.npy", x.view(np.float32))
    np.save(d + "/g.npy", g.view(np.float32))
    # bf16: the upper halves of other float32 samples; x in [-8, 8] mostly
    xb = (sample(n, 13) >> 16).astype(np.uint16)
    xb[len(xb) // 2:] = (np.random.default_rng(14).uniform(-8, 8, n - n // 2)
                         .astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    np.save(d + "/xb.npy", xb)
    np.save(d + "/gb.npy", (sample(n, 15) >> 16).astype(np.uint16))
    # f16: every encoding of x once in the first 65,536 elements' x
    xh = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    np.save(d + "/xh.npy", xh.view(np.float16))
    np.save(d + "/gh.npy", (sample(65536, 16) >> 16).astype(np.uint16).view(np.float16))


def bits(a):
    return a.view(np.uint32) if a.dtype == np.float32 else a.astype(np.uint32)


def same(a, b):
    """Per element: equal encodings, or both NaN (any NaN equals any)."""
    fa, fb = a.view(np.float32), b.view(np.float32)
    return (bits(a) == bits(b)) | (np.isnan(fa) & np.isnan(fb))


def same16(a, b):
    nan = lambda v: ((v & 0x7F80) == 0x7F80) & ((v & 0x7F) != 0)
    return (a == b) | (nan(a) & nan(b))


def rn32(q):
    """The exact rational q rounded to float32, nearest even, with
    subnormals and overflow to infinity."""
    if q == 0:
        return np.float32(0.0)
    s, a = (-1 if q < 0 else 1), abs(q)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    e = max(e, -126)                      # the subnormal spacing below
    ulp = Fraction(2) ** (e - 23)
    m, r = divmod(a, ulp)
    if 2 * r > ulp or (2 * r == ulp and m % 2):
        m += 1
    v = m * ulp
    return np.float32(s * np.inf) if v >= 2 ** 128 else np.float32(s * float(v))


def fused_den(x):
    """fma.rn.f32(x, x, 1) per element: exact for finite x."""
    out = np.empty_like(x)
    for i, v in enumerate(x):
        out[i] = rn32(Fraction(float(v)) ** 2 + 1) if np.isfinite(v) else v * v + np.float32(1)
    return out


def to_bf16(y):
    """float32 -> bf16 bits, nearest even (cvt.rn.bf16.f32); NaN 0x7fff."""
    u = y.view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    return np.where(np.isnan(y), np.uint16(0x7FFF), r)


def from_bf16(b):
    return (b.astype(np.uint32) << 16).view(np.float32)


class Checker:
    def __init__(self):
        self.bad = 0

    def expect(self, ok, what):
        n = int(np.count_nonzero(~ok)) if not isinstance(ok, bool) else int(not ok)
        print(("ok: " if n == 0 else "MISMATCH (%d elements): " % n) + what)
        self.bad += n != 0


def check_f32(c, d):
    load = lambda name: np.load("%s/f32/atan_bwd.f32.%s.npy" % (d, name))
    x, g = load("input.x"), load("input.g")
    one = np.float32(1)
    torch_host = g / (x * x + one)            # three roundings, as PyTorch's kernels
    fused_host = g / fused_den(x)             # the fused denominator, IEEE quotient
    c.expect(same(load("torch"), torch_host), "torch plan = numpy float32 step by step")
    c.expect(same(load("nofma"), torch_host),
             "div_rn kernel, mode nofma = numpy float32 step by step")
    c.expect(same(load("fma"), fused_host),
             "div_rn kernel, mode fma = exact x*x + 1 rounded once, then IEEE division")
    picked = np.isin(x.view(np.uint32), PICKED)
    c.expect(bool((~same(fused_host, torch_host))[picked].all()),
             "the picked inputs separate the fused denominator from PyTorch's")
    print("fma-vs-torch %d" % np.count_nonzero(~same(fused_host, torch_host)))


def check_bf16(c, d):
    load = lambda kernel, name: np.load("%s/bf16-%s/atan_bwd.bf16.%s.npy" % (d, kernel, name))
    xb, gb = load("once", "input.x"), load("once", "input.g")
    x, g = from_bf16(xb), from_bf16(gb)
    one = np.float32(1)
    once = to_bf16(g / (x * x + one))         # float math, one rounding
    s = from_bf16(to_bf16(x * x))
    t = from_bf16(to_bf16(s + one))
    eager = to_bf16(g / t)                    # rounded to bf16 after every step
    c.expect(same16(load("once", "nofma"), once),
             "bf16 kernel, math in float, mode nofma = numpy, rounded to bf16 once")
    c.expect(same16(load("eager", "nofma"), eager),
             "bf16 kernel rounding every step, mode nofma = numpy, rounded every step")
    c.expect(same16(load("once", "torch"), eager), "bf16 torch plan = numpy, rounded every step")
    print("once-vs-eager %d" % np.count_nonzero(~same16(once, eager)))


def check_f16(c, d):
    load = lambda name: np.load("%s/f16-once/atan_bwd.f16.%s.npy" % (d, name))
    x, g = load("input.x").astype(np.float32), load("input.g").astype(np.float32)
    one = np.float32(1)
    once = (g / (x * x + one)).astype(np.float16).view(np.uint16)
    # eager: each step correctly rounded to f16.  A float32 operation
    # rounded again to f16 is that (24 bits >= 2 * 11 + 2: double rounding
    # is harmless for + - * / at that margin).
    h = lambda v: v.astype(np.float16).astype(np.float32)
    eager = (g / h(h(x * x) + one)).astype(np.float16).view(np.uint16)
    nan = lambda v: ((v & 0x7C00) == 0x7C00) & ((v & 0x3FF) != 0)
    same = lambda a, b: (a == b) | (nan(a) & nan(b))
    c.expect(same(load("nofma").view(np.uint16), once),
             "f16 kernel, math in float, mode nofma = numpy, rounded to f16 once")
    c.expect(same(load("torch").view(np.uint16), eager), "f16 torch plan = numpy, rounded every step")
    print("f16-once-vs-eager %d" % np.count_nonzero(~same(once, eager)))


def main(argv):
    if argv[1] == "make":
        make(argv[2])
        return 0
    c = Checker()
    if argv[1] == "check16":
        check_f16(c, argv[2])
        return 1 if c.bad else 0
    check_f32(c, argv[2])
    check_bf16(c, argv[2])
    return 1 if c.bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
