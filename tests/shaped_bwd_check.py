"""shaped_bwd_check.py — independent expected values for the norms'
backward passes (tests/shaped.test), in pure Python (no numpy): the
formulas of PyTorch's layer norm backward (layer_norm_kernel.cu, and the
derivative of rms_norm) in exact fractions.Fraction, rounded by hand to
the dtype, against the catalog kernel's float order (kernels/rows.cu, mode
nofma: each + - * / rounded to binary32 on its own) emulated in binary32
through doubles (exact emulation for + - * /: 53 >= 2*24 + 2).  The
forward statistics the op takes by default are computed here too: the
exact mean rounded to binary32, rstd = 1/sqrt(var + eps) from a 120-bit
integer square root, rounded to binary32.

  shaped_bwd_check.py write DIR ROWS COLS SEED [f16]
        DIR/dout.npy, DIR/x.npy (ROWS, COLS) and DIR/w.npy (COLS)
  shaped_bwd_check.py layer|rms DIR [DUMP]
        per output (dx dweight [dbias]): max_ulp cr_mismatch of the
        catalog kernel, from the files and the default statistics; with
        DUMP (a `--dump` of the run) also the dumped reference and
        statistics, bit for bit (exit 1 if one differs)
"""
import math
import random
import struct
import sys
from fractions import Fraction

EPS = Fraction(0x14f8b58, 2 ** 41)  # 0x1.4f8b58p-17, the float nearest 1e-5
FMT = {'f': (24, -126), 'e': (11, -14)}  # precision, emin


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def f16(x):
    return struct.unpack('<e', struct.pack('<e', x))[0]


def write_npy(path, vals, shape, code):
    descr = {'f': '<f4', 'e': '<f2'}[code]
    shp = '(%d,)' % shape[0] if len(shape) == 1 else '(%d, %d)' % shape
    hdr = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shp)
    hdr += ' ' * (64 - (10 + len(hdr) + 1) % 64) + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(hdr)) + hdr.encode())
        f.write(struct.pack('<%d%s' % (len(vals), code), *vals))


def read_npy(path):
    data = open(path, 'rb').read()
    n = struct.unpack('<H', data[8:10])[0]
    hdr = data[10:10 + n].decode()
    shape = [int(s) for s in hdr.split("'shape': (")[1].split(')')[0].split(',') if s.strip()]
    code = 'e' if "'<f2'" in hdr else 'f'
    count = 1
    for d in shape:
        count *= d
    return shape, list(struct.unpack('<%d%s' % (count, code), data[10 + n:])), code


def exponent(a):  # 2^e <= a < 2^(e+1), a > 0
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    return e


def round_to(q, fmt):  # nearest in fmt, ties to even (no overflow here)
    if q == 0:
        return 0.0
    a = abs(Fraction(q))
    p, emin = FMT[fmt]
    quantum = Fraction(2) ** (max(exponent(a), emin) - (p - 1))
    m = a / quantum
    fl = m.numerator // m.denominator
    rest = m - fl
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and fl % 2):
        fl += 1
    v = float(fl * quantum)
    return v if q > 0 else -v


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


def rsqrt_f32(a):  # 1/sqrt(a), a > 0 a Fraction, to 120 bits, rounded to binary32
    k = 240
    r = Fraction(math.isqrt(a.denominator * 2 ** (2 * k) // a.numerator), 2 ** k)
    return round_to(r, 'f')


def stats(x, rms):  # the default mean and rstd of each row (float32)
    out = []
    for row in x:
        c = len(row)
        m = sum(Fraction(v) for v in row) / c
        var = sum((Fraction(v) - (0 if rms else m)) ** 2 for v in row) / c
        out.append((round_to(m, 'f'), rsqrt_f32(var + EPS)))
    return out


def main():
    cmd, d = sys.argv[1], sys.argv[2]
    if cmd == 'write':
        rows, cols, seed = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        code = 'e' if sys.argv[6:] == ['f16'] else 'f'
        cv = f16 if code == 'e' else f32
        rnd = random.Random(seed)
        # x over a few binades around a per-row offset: the variance is not tiny
        x = [cv(rnd.uniform(-3, 3) * 2.0 ** rnd.randint(-2, 3)) for _ in range(rows * cols)]
        dout = [cv(rnd.uniform(-2, 2)) for _ in range(rows * cols)]
        w = [cv(rnd.uniform(-2, 2)) for _ in range(cols)]
        write_npy(d + '/dout.npy', dout, (rows, cols), code)
        write_npy(d + '/x.npy', x, (rows, cols), code)
        write_npy(d + '/w.npy', w, (cols,), code)
        return
    (rows, cols), xs, fmt = read_npy(d + '/x.npy')
    _, ds, _ = read_npy(d + '/dout.npy')
    _, w, _ = read_npy(d + '/w.npy')
    out = f16 if fmt == 'e' else f32  # the float result rounded once
    x = [xs[r * cols:(r + 1) * cols] for r in range(rows)]
    dy = [ds[r * cols:(r + 1) * cols] for r in range(rows)]
    rms = cmd == 'rms'
    st = stats(x, rms)
    C = float(cols)
    dx, dw, db = [], [], []
    for i in range(rows):
        mu, rs = st[i]
        g = [f32(w[j] * dy[i][j]) for j in range(cols)]
        G = [Fraction(w[j]) * Fraction(dy[i][j]) for j in range(cols)]
        if rms:  # dx = rstd g - x rstd^3/C sum g*x
            b = 0.0
            for j in range(cols):
                b = f32(b + f32(g[j] * x[i][j]))
            c = f32(f32(f32(f32(rs * rs) * rs) * b) / C)
            B = sum(G[j] * Fraction(x[i][j]) for j in range(cols))
            R = Fraction(rs)
            for j in range(cols):
                y = out(f32(f32(rs * g[j]) - f32(x[i][j] * c)))
                dx.append((y, R * G[j] - Fraction(x[i][j]) * R ** 3 / cols * B))
            continue
        # dx = rstd/C (C g - sum g - xhat sum g*xhat)
        a = b = 0.0
        xh = [f32(f32(x[i][j] - mu) * rs) for j in range(cols)]
        for j in range(cols):
            a = f32(a + g[j])
            b = f32(b + f32(g[j] * xh[j]))
        XH = [(Fraction(x[i][j]) - Fraction(mu)) * Fraction(rs) for j in range(cols)]
        A, B = sum(G), sum(G[j] * XH[j] for j in range(cols))
        for j in range(cols):
            v = f32(f32(f32(C * g[j]) - a) - f32(xh[j] * b))
            y = out(f32(f32(v * rs) / C))
            dx.append((y, Fraction(rs) / cols * (cols * G[j] - A - XH[j] * B)))
    for j in range(cols):  # the sums over the rows, from row 0 up
        s = t = 0.0
        S = T = Fraction(0)
        for i in range(rows):
            mu, rs = st[i]
            if rms:
                s = f32(s + f32(f32(dy[i][j] * x[i][j]) * rs))
                S += Fraction(dy[i][j]) * Fraction(x[i][j]) * Fraction(rs)
            else:
                s = f32(s + f32(dy[i][j] * f32(f32(x[i][j] - mu) * rs)))
                S += Fraction(dy[i][j]) * (Fraction(x[i][j]) - Fraction(mu)) * Fraction(rs)
            t = f32(t + dy[i][j])
            T += Fraction(dy[i][j])
        dw.append((out(s), S))
        db.append((out(t), T))
    res = [dx, dw] + ([] if rms else [db])
    print(' '.join('%.6f %d' % figures(p, fmt) for p in res))
    if len(sys.argv) > 3:
        sys.exit(compare(sys.argv[3], cmd, fmt, res, st))


def compare(dump, cmd, fmt, res, st):
    """The dumped reference and statistics against ours, bit for bit."""
    op = 'layer_norm_bwd' if cmd == 'layer' else 'rms_norm_bwd'
    dt = 'f16' if fmt == 'e' else 'f32'
    pre = '%s/%s.%s.' % (dump, op, dt)
    wrong = 0
    for name, pairs in zip(('dx', 'dweight', 'dbias'), res):
        _, ref, _ = read_npy(pre + name + '.ref.npy')
        wrong += sum(r != round_to(v, fmt) for r, (_, v) in zip(ref, pairs))
    stats_in = [('rstd', 1)] + ([] if cmd == 'rms' else [('mean', 0)])
    for name, k in stats_in:
        _, got, _ = read_npy(pre + 'input.' + name + '.npy')
        wrong += sum(g != s[k] for g, s in zip(got, st))
    if wrong:
        print('%d dumped elements differ from the exact values' % wrong, file=sys.stderr)
    return 1 if wrong else 0


main()
