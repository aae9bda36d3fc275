"""shaped_check.py — independent expected values for tests/shaped.test, in
pure Python (no numpy): exact sums with fractions.Fraction, correctly
rounded to binary32 by hand, and the float kernels' sequential order
emulated in binary32 (each f32 + or / through a double and back: a
binary64 result rounded to binary32 equals the binary32-rounded exact
result for + - * / (53 >= 2*24 + 2), so struct's conversion is exact
emulation).  ULP error as docs/metrics.md defines it.

  shaped_check.py write X.npy ROWS COLS SEED    write a float32 tensor
  shaped_check.py write16 X.npy ROWS COLS SEED  a float16 one
  shaped_check.py sum X.npy                     max_ulp cr_mismatch of
                                                the sequential row sum
  shaped_check.py pairwise|warp-tree X.npy      the same in those orders
                                                (src/run/shaped_order.c)
  shaped_check.py mean X.npy                    the same for sum / cols
"""
import random
import sys
from fractions import Fraction


import fracfmt
from fracfmt import f16, f32  # noqa: F401 (block_check.py takes f32)

fmt = 'f'  # the format of the tensor read last (rows_of)


def write_npy(path, vals, rows, cols, code='f'):
    fracfmt.write_npy(path, vals, (rows, cols), code)


def read_npy(path):
    (rows, cols), vals, code = fracfmt.read_npy(path)
    return rows, cols, vals, code


def round_f32(q):  # nearest in fmt, ties to even (no overflow here)
    return fracfmt.round_to(q, fmt)


def figures(pairs):  # (kernel float, exact Fraction) -> max_ulp, mismatches
    return fracfmt.figures(pairs, fmt)


def rows_of(path):
    global fmt
    rows, cols, x, fmt = read_npy(path)
    return cols, [x[r * cols:(r + 1) * cols] for r in range(rows)]


def seq_sum(row):
    acc = 0.0
    for v in row:
        acc = f32(acc + v)
    return acc


def pairwise(row):  # the first half's sum plus the rest's
    if len(row) == 1:
        return row[0]
    h = len(row) // 2
    return f32(pairwise(row[:h]) + pairwise(row[h:]))


def warp_tree(row):  # 32 strided lanes, then the shuffle-down tree
    lane = [0.0] * 32
    for j, v in enumerate(row):
        lane[j % 32] = f32(lane[j % 32] + v)
    off = 16
    while off:
        for l in range(off):
            lane[l] = f32(lane[l] + lane[l + off])
        off //= 2
    return lane[0]


def main():
    cmd = sys.argv[1]
    if cmd in ('write', 'write16'):
        rows, cols, seed = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        rnd = random.Random(seed)
        if cmd == 'write16':  # f16 values from 2^-10 to 2^9: the float sum is exact
            vals = [f16(rnd.choice([-1, 1]) * rnd.uniform(1, 2) * 2.0 ** rnd.randint(-10, 9))
                    for _ in range(rows * cols)]
            write_npy(sys.argv[2], vals, rows, cols, 'e')
            return
        # magnitudes over many binades and both signs: cancellation
        vals = [f32(rnd.choice([-1, 1]) * rnd.uniform(1, 2) * 2.0 ** rnd.randint(-20, 12))
                for _ in range(rows * cols)]
        write_npy(sys.argv[2], vals, rows, cols)
        return
    cols, rows = rows_of(sys.argv[2])
    order = {'sum': seq_sum, 'pairwise': pairwise, 'warp-tree': warp_tree}
    out = f16 if fmt == 'e' else f32  # f16: the float result rounded once
    if cmd in order:
        pairs = [(out(order[cmd](r)), sum(Fraction(v) for v in r)) for r in rows]
    else:  # mean: fl(sum / cols), the exact mean
        pairs = [(f32(seq_sum(r) / cols), sum(Fraction(v) for v in r) / cols) for r in rows]
    worst, mism = figures(pairs)
    print('%.6f %d' % (worst, mism))


if __name__ == "__main__":
    main()
