"""fracfmt.py — what the independent checkers of tests/ share, in pure
Python (no numpy): .npy files of float32, float16 and int32 read and
written by hand, and exact fractions (fractions.Fraction) rounded by hand
to binary32 or binary16 (nearest, ties to even), with the ULP of
docs/metrics.md (the smaller spacing at a power of two).  Formats by
struct code: 'f' binary32, 'e' binary16."""
import struct
from fractions import Fraction

FMT = {'f': (24, -126), 'e': (11, -14)}  # precision, emin
DESCR = {'f': '<f4', 'e': '<f2', 'i': '<i4'}


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def f16(x):  # CPython packs binary16 rounding to nearest, ties to even
    return struct.unpack('<e', struct.pack('<e', x))[0]


def write_npy(path, vals, shape, code='f'):
    shp = '(%d,)' % shape[0] if len(shape) == 1 else '(%d, %d)' % tuple(shape)
    hdr = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (DESCR[code], shp)
    hdr += ' ' * (64 - (10 + len(hdr) + 1) % 64) + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(hdr)) + hdr.encode())
        f.write(struct.pack('<%d%s' % (len(vals), code), *vals))


def read_npy(path):  # -> shape (a list), values, struct code
    data = open(path, 'rb').read()
    n = struct.unpack('<H', data[8:10])[0]
    hdr = data[10:10 + n].decode('latin-1')
    shape = [int(s) for s in hdr.split("'shape': (")[1].split(')')[0].split(',') if s.strip()]
    code = [c for c, d in DESCR.items() if "'%s'" % d in hdr][0]
    count = 1
    for d in shape:
        count *= d
    return shape, list(struct.unpack('<%d%s' % (count, code), data[10 + n:])), code


def exponent(a):  # 2^e <= a < 2^(e+1), a > 0 a Fraction
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    return e


def round_rest(q, fmt):  # nearest in fmt, ties to even (no overflow here),
    if q == 0:           # and the part of a quantum rounded off (in [0, 1))
        return 0.0, Fraction(0)
    a = abs(Fraction(q))
    p, emin = FMT[fmt]
    quantum = Fraction(2) ** (max(exponent(a), emin) - (p - 1))
    m = a / quantum
    fl = m.numerator // m.denominator
    rest = m - fl
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and fl % 2):
        fl += 1
    v = float(fl * quantum)
    return (v if q > 0 else -v), rest


def round_to(q, fmt):
    return round_rest(q, fmt)[0]


def ulp(v, fmt):  # docs/metrics.md: the smaller spacing at a power of two
    a = abs(v)
    p, emin = FMT[fmt]
    if a == 0:
        return Fraction(2) ** (emin - p + 1)
    e = exponent(a)
    if a == Fraction(2) ** e:
        e -= 1
    return Fraction(2) ** (max(e, emin) - (p - 1))


def figures(pairs, fmt):  # (kernel value, exact Fraction) -> max_ulp, mismatches
    worst, mism = 0.0, 0
    for y, v in pairs:
        worst = max(worst, float(abs(Fraction(y) - v) / ulp(v, fmt)))
        mism += y != round_to(v, fmt)
    return worst, mism
