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
import sys
from fractions import Fraction

from fracfmt import f16, f32, figures, read_npy, round_to, write_npy

EPS = Fraction(0x14f8b58, 2 ** 41)  # 0x1.4f8b58p-17, the float nearest 1e-5


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
