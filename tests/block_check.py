"""block_check.py — independent expected values for tests/blockops.test:
the block-level kernels of tests/data/shaped/ emulated on the host in
their own float order, step by step in binary32 (each + - * / through a
double and back, exact emulation as shaped_check.py explains), and their
dumped outputs (ulpbench --dump) compared bit for bit; exact figures with
fractions.Fraction.  Each command prints one line of numbers.

  block_check.py write X.npy ROWS COLS SEED LO HI   a float32 tensor,
                                  uniform in [LO, HI]
  block_check.py rowsum X.npy OUT.npy BLOCK   block_rowsum.cu's order:
        differing elements, max_ulp, cr_mismatch (of the emulation)
  block_check.py layernorm DIR MODE   warp_layernorm.cu's order in mode
        nofma (no contraction): mean's differing elements, out's
        differing elements (from the dumped rstd), rstd's largest
        relative distance from 1/sqrt(var + eps) of the emulated var, in
        units of rsqrt.approx.f32's bound 2^-22.9 (PTX ISA)
  block_check.py write-int X.npy ROWS COLS SEED   integers in [-1000, 1000]
  block_check.py atomic-bound X.npy BLOCK   atomic_rowsum.cu: a bound on
        how many ulps apart two orders of its atomicAdds can put a row's
        sum (derived below), the largest over the rows
  block_check.py softmax-bound X.npy   a bound on warp_softmax.cu's error
        in ulps (derived below)
  block_check.py triton-rowsum X.npy OUT.npy BLOCK WARPS   tests/data/
        triton/rows.py's row_sum in Triton's order (below): differing
        elements, max_ulp, cr_mismatch
  block_check.py triton-softmax X.npy OUT.npy BLOCK WARPS   softmax_row in
        Triton's order, ex2.approx.f32 and div.full.f32 taken from the
        models measured on an sm_90 GPU (the program $MUFU_EVAL, the
        build's `mufu-tab --eval`: Triton compiles for sm_90, where the
        interpreter runs them; the models are checked against the GPU by
        tests/check_mufu.c and tests/insns.test): differing elements
"""
import math
import os
import random
import struct
import subprocess
import sys
from fractions import Fraction

from shaped_check import f32, figures, write_npy

EPS = float.fromhex('0x1.4f8b58p-17')  # the float nearest 1e-5


def read_any(path):  # a '<f4' .npy file of 1 or 2 dimensions: shape, values
    data = open(path, 'rb').read()
    n = struct.unpack('<H', data[8:10])[0]
    hdr = data[10:10 + n].decode()
    assert "'<f4'" in hdr, path
    dims = [int(s) for s in hdr.split("'shape': (")[1].split(')')[0].split(',') if s.strip()]
    count = 1
    for d in dims:
        count *= d
    return dims, list(struct.unpack('<%df' % count, data[10 + n:10 + n + 4 * count]))


def bits(v):
    return struct.pack('<f', v)


def rows_of(path):
    dims, x = read_any(path)
    rows, cols = dims
    return cols, [x[r * cols:(r + 1) * cols] for r in range(rows)]


def butterfly(lane):  # __shfl_xor_sync sum, off 16 .. 1: every lane's value
    off = 16
    while off:
        lane = [f32(lane[l] + lane[l ^ off]) for l in range(32)]
        off //= 2
    return lane[0]


def rowsum_block(row, block):  # thread t: t, t+B, ...; then the halving tree
    part = [0.0] * block
    for t in range(block):
        for j in range(t, len(row), block):
            part[t] = f32(part[t] + row[j])
    s = block // 2
    while s:
        for t in range(s):
            part[t] = f32(part[t] + part[t + s])
        s //= 2
    return part[0]


def lane_sums(row, term):  # per lane: float4 groups k = l, l+32, ... or strided
    lane = [0.0] * 32
    if len(row) % 4 == 0:
        for k in range(len(row) // 4):
            for v in row[4 * k:4 * k + 4]:
                lane[k % 32] = f32(lane[k % 32] + term(v))
    else:
        for j, v in enumerate(row):
            lane[j % 32] = f32(lane[j % 32] + term(v))
    return lane


def layernorm(d, mode):
    assert mode == 'nofma'
    cols, rows = rows_of(d + '/layer_norm.f32.input.x.npy')
    g = read_any(d + '/layer_norm.f32.input.weight.npy')[1]
    b = read_any(d + '/layer_norm.f32.input.bias.npy')[1]
    mean = read_any(d + '/layer_norm.f32.mean.%s.npy' % mode)[1]
    rstd = read_any(d + '/layer_norm.f32.rstd.%s.npy' % mode)[1]
    out = read_any(d + '/layer_norm.f32.out.%s.npy' % mode)[1]
    dmean = dout = 0
    rel = 0.0
    for r, row in enumerate(rows):
        mu = f32(butterfly(lane_sums(row, lambda v: v)) / cols)
        dmean += bits(mu) != bits(mean[r])
        var = butterfly(lane_sums(row, lambda v: f32(f32(v - mu) * f32(v - mu))))
        v = f32(f32(var / cols) + EPS)
        # 1/sqrt(v) to far more than float's precision: a double is enough
        # for a ratio compared with 2^-22.9 (its own error is 2^-52)
        want = 1 / math.sqrt(v)
        rel = max(rel, abs(rstd[r] - want) / want)
        rs = rstd[r]  # the kernel's own rstd, so that out's bits are checkable
        for j, x in enumerate(row):
            y = f32(f32(f32(f32(x - mu) * rs) * g[j]) + b[j])
            dout += bits(y) != bits(out[r * cols + j])
    print('%d %d %.4f' % (dmean, dout, rel / 2 ** -22.9))


def softmax_bound(path):
    """y_j = fl(E_j * fl(1/S)), E_j = expf(fl(x_j - m)), S the lanes' sums
    of E_j (at most ceil(cols/32) additions a lane) and the butterfly (5):
    every term of S passes at most k = ceil(cols/32) + 5 roundings.  With
    u = 2^-24: fl(x_j - m) = d_j + delta_j gives exp a factor e^delta_j;
    expf is within 2 ulp (CUDA's documented bound), a relative 2^-22;
    so E_j and S are each within a relative (D + 2^-22)(1 + small) and
    k*u of theirs, D = max_j |delta_j|, and 1/S and the product add u
    each.  y_j's relative error is then at most
    2 (D + 2^-22) + (k + 2) u, to first order; ulp(y) > y 2^-24, so in
    ulps at most 2 (D/u + 4) + k + 2, taken 1% larger for the second-order
    terms."""
    cols, rows = rows_of(path)
    dmax = Fraction(0)
    for row in rows:
        m = max(row)
        for v in row:
            dmax = max(dmax, abs(Fraction(f32(v - m)) - (Fraction(v) - Fraction(m))))
    k = -(-cols // 32) + 5
    print('%.3f' % (1.01 * (2 * (float(dmax) * 2 ** 24 + 4) + k + 2)))


def triton_rowsum(row, block, warps):
    """tl.sum of one row as Triton 3.9 compiles it for BLOCK = 2 * 32 *
    WARPS or 32 * WARPS (read from its PTX): thread t of the T = 32 WARPS
    holds columns t and t + T (masked ones 0.0) and adds them; each warp's
    32 values go round a __shfl_xor butterfly (16 .. 1); the warps' sums go
    through shared memory to the lanes of every warp, lane l taking warp
    l % WARPS's, and round a butterfly of WARPS/2 .. 1; lane 0 stores."""
    t_all = 32 * warps
    assert block in (t_all, 2 * t_all), 'the order is read for these BLOCKs only'
    x = list(row) + [0.0] * (block - len(row))
    v = [x[t] if block == t_all else f32(x[t] + x[t + t_all]) for t in range(t_all)]
    w = [butterfly(v[32 * k:32 * k + 32]) for k in range(warps)]
    off = warps // 2
    while off:
        w = [f32(w[l] + w[l ^ off]) for l in range(warps)]
        off //= 2
    return w[0]


def measured(lines):
    """The measured models' results for lines 'FN FTZ A [B]' (hex f32
    encodings), through $MUFU_EVAL, as floats."""
    out = subprocess.run([os.environ['MUFU_EVAL'], '--eval'], input=''.join(lines),
                         capture_output=True, text=True, check=True).stdout.split()
    assert len(out) == len(lines), 'mufu-tab --eval gave %d results' % len(out)
    return [struct.unpack('<f', struct.pack('<I', int(h, 16)))[0] for h in out]


def hexf(v):
    return '%08x' % struct.unpack('<I', struct.pack('<f', v))[0]


def triton_softmax(rows, block, warps):
    """softmax_row of each row: z = x - max (the max is exact in any
    order), e = ex2.approx.f32(z * f32(log2 e)) (Triton's tl.exp: mul.f32
    by 0f3FB8AA3B, read from its PTX), masked columns -inf so e = 0, their
    sum in row_sum's order, e / sum by div.full.f32."""
    c = f32(1 / math.log(2))
    assert bits(c) == bytes.fromhex('3baab83f')  # 0x3FB8AA3B
    t = [[f32(f32(v - max(row)) * c) for v in row] for row in rows]
    e = measured(['ex2 0 %s\n' % hexf(v) for r in t for v in r])
    e = [e[i * len(r):(i + 1) * len(r)] for i, r in enumerate(t)]
    s = [triton_rowsum(r, block, warps) for r in e]
    q = measured(['div.full 0 %s %s\n' % (hexf(v), hexf(s[i])) for i, r in enumerate(e) for v in r])
    return q


def atomic_bound(rows, block):
    """Thread t's partial p_t sums columns t, t + BLOCK, ... in one fixed
    order; the atomics add the p_t to 0 in some order: B - 1 roundings
    (0 + p is exact), so each order's result is within E = g Sum |p_t| of
    S = Sum p_t, g = (B-1)u / (1 - (B-1)u), u = 2^-24 (the textbook bound
    of a recursive sum), and two orders are at most 2E apart.  Between
    two floats that far apart, of magnitude at least L = |S| - E, lie at
    most 2E / spacing(L) + 1 encodings (spacing(L) the floats' spacing
    in L's binade, 2^-149 when L <= 2^-126)."""
    worst = 0
    u = Fraction(1, 2 ** 24)
    g = (block - 1) * u / (1 - (block - 1) * u)
    for row in rows:
        p = [0.0] * block
        for t in range(block):
            for j in range(t, len(row), block):
                p[t] = f32(p[t] + row[j])
        s = sum(Fraction(v) for v in p)
        e = g * sum(abs(Fraction(v)) for v in p)
        low = abs(s) - e
        sp = Fraction(1, 2 ** 149)
        if low > Fraction(1, 2 ** 126):
            k = low.numerator.bit_length() - low.denominator.bit_length()
            while Fraction(2) ** k > low:
                k -= 1
            while Fraction(2) ** (k + 1) <= low:
                k += 1
            sp = Fraction(2) ** (k - 23)
        worst = max(worst, int(2 * e / sp) + 1)
    return worst


def main():
    cmd = sys.argv[1]
    if cmd == 'write':
        rows, cols, seed = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        lo, hi = float(sys.argv[6]), float(sys.argv[7])
        rnd = random.Random(seed)
        write_npy(sys.argv[2], [f32(rnd.uniform(lo, hi)) for _ in range(rows * cols)],
                  rows, cols)
    elif cmd == 'write-int':
        rows, cols, seed = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        rnd = random.Random(seed)
        write_npy(sys.argv[2], [float(rnd.randint(-1000, 1000)) for _ in range(rows * cols)],
                  rows, cols)
    elif cmd == 'atomic-bound':
        print(atomic_bound(rows_of(sys.argv[2])[1], int(sys.argv[3])))
    elif cmd == 'rowsum':
        cols, rows = rows_of(sys.argv[2])
        got = read_any(sys.argv[3])[1]
        ours = [rowsum_block(r, int(sys.argv[4])) for r in rows]
        diff = sum(bits(a) != bits(b) for a, b in zip(ours, got))
        worst, mism = figures([(y, sum(Fraction(v) for v in r)) for y, r in zip(ours, rows)])
        print('%d %.6f %d' % (diff, worst, mism))
    elif cmd == 'triton-rowsum':
        cols, rows = rows_of(sys.argv[2])
        got = read_any(sys.argv[3])[1]
        ours = [triton_rowsum(r, int(sys.argv[4]), int(sys.argv[5])) for r in rows]
        diff = sum(bits(a) != bits(b) for a, b in zip(ours, got))
        worst, mism = figures([(y, sum(Fraction(v) for v in r)) for y, r in zip(ours, rows)])
        print('%d %.6f %d' % (diff, worst, mism))
    elif cmd == 'triton-softmax':
        cols, rows = rows_of(sys.argv[2])
        got = read_any(sys.argv[3])[1]
        ours = triton_softmax(rows, int(sys.argv[4]), int(sys.argv[5]))
        print('%d' % sum(bits(a) != bits(b) for a, b in zip(ours, got)))
    elif cmd == 'layernorm':
        layernorm(sys.argv[2], sys.argv[3])
    elif cmd == 'softmax-bound':
        softmax_bound(sys.argv[2])


main()
