"""mm_check.py — independent checks of the matrix ops for tests/matmul.test,
in pure Python (fractions, and mpmath for attention): written apart from
ulpbench, from the ops' definitions and from the tensor cores' published
model (Fasi et al. 2021; Khattak and Mikaitis 2025: block FMA size,
extra alignment bits, truncation; MMA-Sim's fused_sum).

  mm_check.py inputs A.npy B.npy M N K SEED   f16 operands, random, with the
        test vector of the hand check in row 0 of A and column 0 of B
  mm_check.py ref DIR OP DTYPE                 the dumped reference equals
        the exact values rounded once (sdpa: mpmath at 400 bits); prints the
        number of elements checked
  mm_check.py unit DIR DTYPE MODE F BLOCK      every output of MODE equals
        the unit's model (F fraction bits, blocks of BLOCK products in k
        order, f32 truncated between them), rounded to nearest to the dtype;
        prints the number of elements and the (0, 0) element's bits

The hand check's vector: a[0] = (2^5, 2^5, 2^-8, 0...), b[:,0] = (2^5,
-2^5, 2^-8, ...): the products 2^10, -2^10, 2^-16.  The largest exponent is
10; F bits below it reach 2^(10-F) (2^-15 for F = 25, 2^-14 for F = 24), so
2^-16 is truncated away before the cancellation: the unit gives +0, where
the exact value is 2^-16 (f16 0x0100)."""
import sys
from fractions import Fraction

import fracfmt


def f16_bits(v):
    import struct
    return struct.unpack('<H', struct.pack('<e', v))[0]


def lcg(seed):
    while True:
        seed = (seed * 6364136223846793005 + 1442695040888963407) % 2 ** 64
        yield seed >> 33


def inputs(a_path, b_path, m, n, k, seed):
    g = lcg(seed)
    a = [((next(g) % 2000) - 1000) / 512.0 for _ in range(m * k)]
    b = [((next(g) % 2000) - 1000) / 512.0 for _ in range(k * n)]
    a = [fracfmt.f16(x) for x in a]
    b = [fracfmt.f16(x) for x in b]
    for i in range(k):
        a[i] = 0.0
        b[i * n] = fracfmt.f16(((next(g) % 2000) - 1000) / 512.0)
    a[0], a[1], a[2] = 32.0, 32.0, 2.0 ** -8
    b[0], b[n], b[2 * n] = 32.0, -32.0, 2.0 ** -8
    fracfmt.write_npy(a_path, a, (m, k), 'e')
    fracfmt.write_npy(b_path, b, (k, n), 'e')


def load(d, op, dt, what):
    shape, vals, code = fracfmt.read_npy('%s/%s.%s.%s.npy' % (d, op, dt, what))
    return shape, vals


def operand_fns(d, op, dt):
    """(rows, cols, inner, a(i, k), b(k, j), bias(j) or None)."""
    oshape, _ = load(d, op, dt, 'out.ref')
    rows, cols = oshape
    if op == 'linear':
        (_, kk), x = load(d, op, dt, 'input.x')
        _, w = load(d, op, dt, 'input.weight')
        _, bias = load(d, op, dt, 'input.bias')
        return rows, cols, kk, lambda i, k: x[i * kk + k], lambda k, j: w[j * kk + k], bias
    (_, kk), a = load(d, op, dt, 'input.a')
    bshape, b = load(d, op, dt, 'input.b')
    if op == 'bmm':   # b dumped as (batch * K, N)
        batch = bshape[0] // kk
        m = rows // batch
        return rows, cols, kk, lambda i, k: a[i * kk + k], \
            lambda k, j, i=None: b[((i // m) * kk + k) * cols + j], None, m
    return rows, cols, kk, lambda i, k: a[i * kk + k], lambda k, j: b[k * cols + j], None


def same(x, y):
    if x != x and y != y:
        return True
    return x == y and str(x)[0] == str(y)[0]   # +0 and -0 apart


def ref(d, op, dt):
    fmt = 'f' if dt == 'f32' else 'e'
    _, want = load(d, op, dt, 'out.ref')
    if op.startswith('sdpa'):
        return ref_sdpa(d, op, dt, fmt, want)
    r = operand_fns(d, op, dt)
    rows, cols, kk, a, b, bias = r[:6]
    n = 0
    for i in range(rows):
        for j in range(cols):
            if op == 'bmm':
                s = sum(Fraction(a(i, k)) * Fraction(r[4](k, j, i)) for k in range(kk))
            else:
                s = sum(Fraction(a(i, k)) * Fraction(b(k, j)) for k in range(kk))
            if bias is not None:
                s += Fraction(bias[j])
            got = want[i * cols + j]
            exp = fracfmt.round_to(s, fmt)
            if not same(got, exp) and not (s == 0 and got == 0):
                sys.exit('%s %s (%d,%d): reference %r, exact rounded %r' % (op, dt, i, j,
                                                                           got, exp))
            n += 1
    print(n)


def ref_sdpa(d, op, dt, fmt, want):
    import mpmath
    mpmath.mp.prec = 400
    (rows, dd), q = load(d, op, dt, 'input.q')
    (s, _), k = load(d, op, dt, 'input.k')
    _, v = load(d, op, dt, 'input.v')
    n = 0
    for i in range(rows):
        keys = range(min(i + 1, s)) if op == 'sdpa_causal' else range(s)
        sc = [mpmath.fsum(mpmath.mpf(q[i * dd + c]) * k[t * dd + c] for c in range(dd)) /
              mpmath.sqrt(dd) for t in keys]
        m = max(sc)
        e = [mpmath.exp(x - m) for x in sc]
        tot = mpmath.fsum(e)
        for c in range(dd):
            got = want[i * dd + c]
            if got != got:   # undecided by ulpbench's reference: left out
                continue
            o = mpmath.fsum(e[j] * v[t * dd + c] for j, t in enumerate(keys)) / tot
            man, ex = o.man_exp   # |o| = man * 2^ex exactly
            exact = Fraction(abs(int(man))) * Fraction(2) ** int(ex)
            exp = fracfmt.round_to(-exact if o < 0 else exact, fmt)
            if got != exp:
                sys.exit('%s %s (%d,%d): reference %r, mpmath %r' % (op, dt, i, c, got, exp))
            n += 1
    print(n)


def decode16(x):
    """f16 value x as (negative, m, e): |x| = m * 2^(e - 10) with m an
    integer below 2^11; subnormals keep the least exponent -14 (m < 2^10)."""
    if x == 0:
        return None
    bits = f16_bits(x)
    field, m = (bits >> 10) & 31, bits & 1023
    return (bits >> 15 == 1, m | 1024 if field else m, field - 15 if field else -14)


def decode32(x):
    """float32 value x as (negative, m, e): |x| = m * 2^(e - 23)."""
    import struct
    bits = struct.unpack('<I', struct.pack('<f', x))[0]
    field, m = (bits >> 23) & 255, bits & 0x7fffff
    return (bits >> 31 == 1, m | 1 << 23 if field else m, field - 127 if field else -126)


def rz_f32(neg, s, u):
    """s * 2^u (s a positive integer) truncated to binary32 (24 bits, the
    subnormal grid 2^-149; 2^128 and above infinite), signed."""
    e = s.bit_length() - 1 + u
    if e >= 128:
        return float('-inf') if neg else float('inf')
    q = max(e, -126) - 23          # the quantum's exponent
    t = s >> (q - u) if q > u else s << (u - q)
    v = float(Fraction(t) * Fraction(2) ** q)
    return -v if neg else v


def unit_block(prods, c, F):
    """One block FMA: the products (pairs of f16 values) and c (a float32
    value), each exact as an integer times a power of two, aligned to the
    largest exponent E, truncated toward zero to F fraction bits below 2^E
    (a right shift of the magnitude), added exactly, truncated to f32."""
    terms = []
    for x, y in prods:
        dx, dy = decode16(x), decode16(y)
        if dx and dy:   # m_a m_b * 2^(ea + eb - 20)
            terms.append((dx[0] != dy[0], dx[1] * dy[1], dx[2] + dy[2], 20))
    if c != 0:
        dc = decode32(c)
        terms.append((dc[0], dc[1], dc[2], 23))
    if not terms:
        return 0.0
    E = max(t[2] for t in terms)
    s = 0
    for neg, m, e, fb in terms:   # m * 2^(e - fb) in units of 2^(E - F)
        sh = e - fb - (E - F)
        t = m << sh if sh >= 0 else m >> -sh
        s += -t if neg else t
    return rz_f32(s < 0, abs(s), E - F) if s else 0.0


def unit(d, dt, mode, F, block):
    r = operand_fns(d, 'matmul', dt)
    rows, cols, kk, a, b = r[:5]
    _, got = load(d, 'matmul', dt, 'out.' + mode)
    for i in range(rows):
        for j in range(cols):
            c = 0.0
            for k0 in range(0, kk, block):
                c = unit_block([(a(i, k), b(k, j)) for k in range(k0, min(kk, k0 + block))],
                               c, F)
            want = fracfmt.round_to(Fraction(c), 'e')
            if not same(got[i * cols + j], want):
                sys.exit('matmul %s (%d,%d): %r, the model gives %r' % (mode, i, j,
                                                                      got[i * cols + j], want))
    print(rows * cols, '0x%04x' % f16_bits(got[0]))


def main(argv):
    if argv[1] == 'inputs':
        inputs(argv[2], argv[3], *[int(x) for x in argv[4:8]])
    elif argv[1] == 'ref':
        ref(argv[2], argv[3], argv[4])
    elif argv[1] == 'unit':
        unit(argv[2], argv[3], argv[4], int(argv[5]), int(argv[6]))
    else:
        sys.exit('usage: see the docstring')


if __name__ == '__main__':
    main(sys.argv)
