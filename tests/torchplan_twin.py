"""torchplan_twin.py - a second implementation of the CUDA orders that
src/torchplan models (PyTorch's softmax, log_softmax, layer_norm forward,
sum over the last dimension, cross-entropy), in numpy float32 step by step,
compared bit for bit with tests/torchplan_run on random rows; and, as an
independent check of what each op means, the same ops from PyTorch on the
CPU within a tolerance (the CPU kernels sum in other orders, so no bitwise
comparison is possible there: SoftMaxKernel.cpp, layer_norm_kernel.cpp and
SumKernel.cpp vectorize and cascade their sums).

Usage: torchplan_twin.py RUNNER TMPDIR
Arithmetic: numpy float32 scalars and arrays (IEEE binary32, round to
nearest); fma through an exact double product and a TwoSum; expf, logf and
rsqrtf as the C stand-ins define them (Python's math module, the same libm,
rounded to float32)."""
import math
import subprocess
import sys

import numpy as np

F = np.float32
RUNNER = sys.argv[1]
FMAX = F(np.finfo(np.float32).max)
failures = 0


def fma(a, b, c):
    """float32 fma: a*b is exact in double; TwoSum recovers the add's error,
    which decides a tie of the final rounding to float32."""
    a, b, c = float(a), float(b), float(c)
    p = a * b
    s = p + c
    if not math.isfinite(s):
        return F(s)
    bb = s - p
    err = (p - (s - bb)) + (c - bb)
    r = F(s)
    if err != 0.0:
        other = np.nextafter(r, F(math.inf) if float(r) < s else F(-math.inf))
        if float(r) != s and (float(r) + float(other)) / 2 == s:
            s = math.nextafter(s, math.inf if err > 0 else -math.inf)
            r = F(s)
    return r


def expf(x):
    x = float(x)
    try:
        return F(math.exp(x))
    except OverflowError:
        return F(math.inf)


def logf(x):
    x = float(x)
    if x != x or x < 0:
        return F(math.nan)
    if x == 0:
        return F(-math.inf)
    return F(math.log(x))


def rsqrtf(x):
    x = float(x)
    if x != x or x < 0:
        return F(math.nan)
    if x == 0:
        return F(math.inf)
    return F(1.0 / math.sqrt(x))


def npow2(n):
    p = 1
    while p < n:
        p *= 2
    return p


# --- softmax: PersistentSoftmax.cuh (warp) and SoftMax.cu (block) ---

def warp_softmax(x, log):
    n = len(x)
    p = npow2(n)
    w = min(p, 32)
    grid = np.full(p, -np.inf, dtype=F)
    grid[:n] = x
    e = grid.reshape(p // w, w)          # e[it, lane] = x[lane + it*w]
    m = e[0].copy()
    for it in range(1, e.shape[0]):
        m = np.where(m > e[it], m, e[it]).astype(F)
    lanes = np.arange(w)
    off = w // 2
    while off:
        other = m[lanes ^ off]
        m = np.where(m < other, other, m).astype(F)
        off //= 2
    s = np.zeros(w, dtype=F)
    ex = np.empty_like(e)
    for it in range(e.shape[0]):
        for l in range(w):
            ex[it, l] = expf(e[it, l] - m[l])
        s = (s + ex[it]).astype(F)
    off = w // 2
    while off:
        s = (s + s[lanes ^ off]).astype(F)
        off //= 2
    total = s[0]
    out = np.empty(p, dtype=F)
    if log:
        ls = logf(total)
        for it in range(e.shape[0]):
            out[it * w:(it + 1) * w] = (e[it] - m) - ls
    else:
        for it in range(e.shape[0]):
            out[it * w:(it + 1) * w] = ex[it] / total
    return out[:n]


def down_tree(v, op):
    """32 lanes by shfl_down: a lane whose source lies beyond the warp keeps
    its own value as the operand."""
    v = v.copy()
    idx = np.arange(32)
    off = 16
    while off:
        src = np.where(idx + off < 32, idx + off, idx)
        v = op(v, v[src]).astype(F)
        off //= 2
    return v[0]


def sel_max(a, b):
    return np.where(a < b, b, a)


def block_reduce_softmax(vals, is_max):
    op = sel_max if is_max else (lambda a, b: a + b)
    warps = len(vals) // 32
    ident = -FMAX if is_max else F(0)
    firsts = [down_tree(vals[32 * k:32 * k + 32], op) for k in range(warps)]
    lane = np.full(32, ident, dtype=F)
    lane[:warps] = firsts
    return down_tree(lane, op)


def block_softmax(x, log, esize, smem_bytes=49152):
    n = len(x)
    threads = (min(n, 1024) + 31) // 32 * 32
    ilp = 16 // esize
    fits = n < (smem_bytes - (threads // 32) * 4) // esize
    smem = fits and n % ilp == 0
    last = 0 if smem else n % (ilp * threads)
    order = []                            # per thread, its elements in order
    for t in range(threads):
        mine = []
        v = t
        while v * ilp < n - last:
            mine.extend(range(v * ilp, v * ilp + ilp))
            v += threads
        if last:
            mine.extend(range(n - last + t, n, threads))
        order.append(mine)
    tmax = np.full(threads, -FMAX, dtype=F)
    for t in range(threads):
        for k in order[t]:
            tmax[t] = np.fmax(tmax[t], x[k])
    mx = block_reduce_softmax(tmax, True)
    tsum = np.zeros(threads, dtype=F)
    for t in range(threads):
        for k in order[t]:
            tsum[t] = tsum[t] + expf(x[k] - mx)
    total = block_reduce_softmax(tsum, False)
    if log:
        ls = logf(total)
        return ((x - mx) - ls).astype(F)
    return np.array([expf(v - mx) / total for v in x], dtype=F)


def softmax(x, log, esize):
    if len(x) <= 1024 and len(x) * esize <= 4096:
        return warp_softmax(x, log)
    return block_softmax(x, log, esize)


# --- layer_norm forward: layer_norm_kernel.cu ---

def ln_online(st, v):
    mean, s2, n = st
    d = F(v - mean)
    n1 = F(n + F(1))
    r = F(F(1) / n1)
    m1 = fma(r, d, mean)
    return (m1, fma(d, F(v - m1), s2), n1)


def ln_combine(b, a):                     # cuWelfordCombine(dataB, dataA)
    d = F(b[0] - a[0])
    n = F(a[2] + b[2])
    if not n > 0:
        return (F(0), F(0), n)
    coef = F(F(1) / n)
    na, nb = F(a[2] * coef), F(b[2] * coef)
    return (fma(a[0], na, F(b[0] * nb)), fma(F(a[2] * F(d * d)), nb, F(a[1] + b[1])), n)


def wf_reduce(st, v):                     # WelfordOps::reduce
    mean, m2, nf = st
    nf1 = F(nf + F(1))
    d = F(v - mean)
    m1 = F(mean + F(d / nf1))
    return (m1, fma(d, F(v - m1), m2), nf1)


def wf_combine(a, b):                     # WelfordOps::combine
    if a[2] == 0:
        return b
    if b[2] == 0:
        return a
    d = F(b[0] - a[0])
    n = F(a[2] + b[2])
    r = F(b[2] / n)
    return (fma(d, r, a[0]), fma(F(a[2] * F(d * d)), r, F(a[1] + b[1])), n)


def warp_down(states, comb):
    v = list(states)
    off = 16
    while off:
        v = [comb(v[i], v[i + off] if i + off < 32 else v[i]) for i in range(32)]
        off //= 2
    return v[0]


def ln_stats(x):
    n = len(x)
    z = (F(0), F(0), F(0))
    if n % 4 == 0 and n <= 1 << 24:       # vectorized_layer_norm_kernel
        th = []
        for t in range(128):
            st = z
            for i in range(t, n // 4, 128):
                for k in range(4):
                    st = ln_online(st, x[4 * i + k])
            th.append(st)
        warps = [warp_down(th[32 * y:32 * y + 32], ln_combine) for y in range(4)]
        warps[0] = ln_combine(warps[0], warps[2])
        warps[1] = ln_combine(warps[1], warps[3])
        warps[0] = ln_combine(warps[0], warps[1])
        return warps[0][0], F(warps[0][1] / F(n)), True
    th = []                               # RowwiseMomentsCUDAKernel
    for t in range(512):
        st = z
        for j in range(t, n, 512):
            st = wf_reduce(st, x[j])
        th.append(st)
    firsts = [warp_down(th[32 * k:32 * k + 32], wf_combine) for k in range(16)]
    r = warp_down(firsts + [z] * 16, wf_combine)
    return r[0], F(r[1] / r[2]), False


def layer_norm(x, g, b, eps):
    mean, var, vec = ln_stats(x)
    rs = rsqrtf(F(var + F(eps)))
    out = np.empty(len(x), dtype=F)
    for j, v in enumerate(x):
        c = F(v - mean)
        if not vec:
            out[j] = fma(F(c * rs), F(1) if g is None else g[j], F(0) if b is None else b[j])
        elif g is not None and b is not None:
            out[j] = fma(g[j], F(rs * c), b[j])
        elif g is not None:
            out[j] = F(g[j] * F(rs * c))
        elif b is not None:
            out[j] = fma(rs, c, b[j])
        else:
            out[j] = F(rs * c)
    return out, mean, rs


# --- sum over the last dimension: Reduce.cuh ---

def lastp2(n):
    return 1 << (n.bit_length() - 1) if n >= 1 else 1


def reduce_config(rows, cols, sms=132, tpsm=2048):
    d0, d1 = cols, rows
    vec = d0 > 128
    if vec:
        d0 //= 4
    p0 = lastp2(d0) if d0 < 512 else 512
    p1 = lastp2(d1) if d1 < 512 else 512
    bw = min(p0, 32)
    bh = min(p1, 512 // bw)
    bw = min(p0, 512 // bh)
    step, mult = bw, [1, 0, 0]
    step_out = 1
    vpt = -(-cols // step)
    if vpt >= bh * 16 or vpt >= 256:
        mult[1] = step
        step *= bh
    else:
        step_out = bh
    target = sms * (tpsm // (bw * bh))
    grid = -(-rows // step_out)
    ctas = 1
    vpt = -(-cols // step)
    if mult[1] and vpt >= 256 and grid <= target:
        ctas = max(min(-(-target // grid), -(-vpt // 16)), -(-vpt // 256))
        if ctas > 1:
            mult[2] = step
            step *= ctas
    return dict(vec=vec, bw=bw, bh=bh, ctas=ctas, mult=mult, step=step)


def thread_sum(c, x, row, tx, ty, cta):
    n = len(x)
    idx = tx * c["mult"][0] + ty * c["mult"][1] + cta * c["mult"][2]
    s = c["step"]
    acc = [F(0)] * 4
    if not c["vec"]:
        while idx + 3 * s < n:
            for i in range(4):
                acc[i] = F(acc[i] + x[idx + i * s])
            idx += 4 * s
        for i in range(4):
            if idx >= n:
                break
            acc[i] = F(acc[i] + x[idx])
            idx += s
    else:
        tail_ok = (not c["mult"][1] or ty == 0) and (not c["mult"][2] or cta == 0)
        sh = (row * n) % 4
        data = x                          # the row, seen from an aligned start
        if sh:
            data = np.concatenate([np.zeros(sh, dtype=F), x])
            if sh <= tx < 4 and tail_ok:
                acc[0] = F(acc[0] + data[tx])
            data = data[4:]
        end = len(data)
        while idx * 4 + 3 < end:
            for i in range(4):
                acc[i] = F(acc[i] + data[idx * 4 + i])
            idx += s
        t = end - end % 4 + tx
        if tail_ok and t < end:
            acc[0] = F(acc[0] + data[t])
    return F(F(F(acc[0] + acc[1]) + acc[2]) + acc[3])


def block_sum(c, v, yred):
    bw, bh = c["bw"], c["bh"]
    v = v.reshape(-1, bw).copy()
    if yred:
        off = bh // 2
        while off:
            v[:off] = (v[:off] + v[off:2 * off]).astype(F)
            off //= 2
    r = v[0].copy()
    dx = bw
    if dx > 32:
        off = dx // 2
        while off >= 32:
            r[:off] = (r[:off] + r[off:2 * off]).astype(F)
            off //= 2
        dx = 32
    off = 1
    while off < dx:
        r[:dx - off] = (r[:dx - off] + r[off:dx]).astype(F)
        off *= 2
    return r[0]


def row_sum(c, x, row):
    hy = c["bh"] if c["mult"][1] else 1
    staged = []
    for cta in range(c["ctas"]):
        v = np.array([thread_sum(c, x, row, tx, y, cta)
                      for y in range(hy) for tx in range(c["bw"])], dtype=F)
        staged.append(block_sum(c, v, c["mult"][1] != 0))
    if c["ctas"] == 1:
        return staged[0]
    nthr = c["bw"] * c["bh"]
    v = np.zeros(nthr, dtype=F)
    for t in range(nthr):
        for i in range(t, c["ctas"], nthr):
            v[t] = F(v[t] + staged[i])
    return block_sum(c, v, True)


# --- driver ---

def to_bits(a, dt):
    a = np.asarray(a, dtype=F)
    if dt == "f32":
        return a.view(np.uint32).astype(np.uint64)
    if dt == "f16":
        return a.astype(np.float16).view(np.uint16).astype(np.uint64)
    u = a.view(np.uint32).astype(np.uint64)      # bf16, round to nearest even
    return ((u + 0x7fff + ((u >> 16) & 1)) >> 16) & 0xffff


def from_bits(b, dt):
    b = np.asarray(b, dtype=np.uint64)
    if dt == "f32":
        return b.astype(np.uint32).view(F)
    if dt == "f16":
        return b.astype(np.uint16).view(np.float16).astype(F)
    return (b.astype(np.uint32) << 16).view(F)


def run(op, dt, rows, cols, words, extra=""):
    arg = [RUNNER, op, dt, str(rows), str(cols)] + ([extra] if extra else [])
    text = " ".join(words)
    res = subprocess.run(arg, input=text, capture_output=True, text=True, check=True)
    lines = res.stdout.split("\n")
    if lines[0] not in ("exact", "order"):
        global failures
        failures += 1
        print(f"FAIL {op} {dt} {rows}x{cols}: the plan answered {lines[0]}")
    return lines[0], [int(w, 16) for w in lines[1:] if w]




def check(name, got, want, dt):
    global failures
    got = np.asarray(got, dtype=np.uint64)
    want = to_bits(want, dt) if np.asarray(want).dtype == F else np.asarray(want, np.uint64)
    bad = np.nonzero(got != want)[0]
    if len(bad):
        failures += 1
        i = bad[0]
        print(f"FAIL {name}: {len(bad)} of {len(want)} differ; first at {i}: "
              f"got {int(got[i]):#x} want {int(want[i]):#x}")


def torch_close(name, got, want, rtol, atol):
    global failures
    if not np.allclose(got, want, rtol=rtol, atol=atol, equal_nan=True):
        failures += 1
        d = np.max(np.abs(got.astype(np.float64) - want.astype(np.float64)))
        print(f"FAIL {name}: differs from PyTorch on the CPU by up to {d:g}")


def main():
    import torch
    rng = np.random.default_rng(20261201)
    esize = {"f32": 4, "f16": 2, "bf16": 2}
    lengths = [1, 2, 3, 31, 32, 33, 127, 129, 1000, 1024, 1025, 4096]
    for dt in ["f32", "f16", "bf16"]:
        for n in lengths:
            rows = 3
            x = from_bits(to_bits(rng.normal(0, 3, (rows, n)).astype(F), dt), dt)
            words = [f"{w:x}" for w in to_bits(x, dt).ravel()]
            for op, log in (("softmax", 0), ("log_softmax", 1)):
                st, out = run(op, dt, rows, n, words)
                want = np.concatenate([softmax(x[r], log, esize[dt]) for r in range(rows)])
                check(f"{op} {dt} {rows}x{n}", out, to_bits(want, dt), dt)
                t = torch.from_numpy(x.copy())
                tw = (torch.log_softmax if log else torch.softmax)(t, -1).numpy()
                torch_close(f"{op} {dt} {n} vs torch", from_bits(out, dt).reshape(rows, n),
                            tw, 4e-6 * (1 + 2 * log) if dt == "f32" else 1e-2, 1e-6)
            g = from_bits(to_bits(rng.normal(1, 0.5, n).astype(F), dt), dt)
            b = from_bits(to_bits(rng.normal(0, 0.5, n).astype(F), dt), dt)
            gb = [f"{w:x}" for w in np.concatenate([to_bits(g, dt), to_bits(b, dt)])]
            for op, gg, bb in (("layer_norm", None, None), ("layer_norm_wb", g, b)):
                st, out = run(op, dt, rows, n, words + (gb if gg is not None else []), "1e-5")
                res = [layer_norm(x[r], gg, bb, 1e-5) for r in range(rows)]
                want = np.concatenate([to_bits(o, dt) for o, _, _ in res])
                k = rows * n
                check(f"{op} {dt} {rows}x{n} out", out[:k], want, dt)
                check(f"{op} {dt} {rows}x{n} mean", out[k:k + rows],
                      to_bits(np.array([m for _, m, _ in res], dtype=F), "f32"), "f32")
                check(f"{op} {dt} {rows}x{n} rstd", out[k + rows:],
                      to_bits(np.array([r for _, _, r in res], dtype=F), "f32"), "f32")
                if dt == "f32":
                    t = torch.from_numpy(x.copy())
                    tw = torch.nn.functional.layer_norm(
                        t, (n,), None if gg is None else torch.from_numpy(g.copy()),
                        None if bb is None else torch.from_numpy(b.copy()), 1e-5).numpy()
                    torch_close(f"{op} {n} vs torch", from_bits(out[:k], dt).reshape(rows, n),
                                tw, 1e-4, 1e-4)
            if n > 1:
                st, out = run("sum", dt, rows, n, words)
                c = reduce_config(rows, n)
                want = np.array([row_sum(c, x[r], r) for r in range(rows)], dtype=F)
                check(f"sum {dt} {rows}x{n}", out, to_bits(want, dt), dt)
                if dt == "f32":
                    tw = torch.from_numpy(x.copy()).sum(-1).numpy()
                    torch_close(f"sum {n} vs torch", from_bits(out, dt), tw, 1e-5, 1e-4)
            tgt = rng.integers(0, n, rows)
            tgt[0] = -100 if rows > 1 else tgt[0]
            for red in ("none", "mean"):
                st, out = run("xent_" + red, dt, rows, n, words + [str(t) for t in tgt])
                lp = np.stack([softmax(x[r], 1, esize[dt]) for r in range(rows)])
                lp = from_bits(to_bits(lp, dt), dt)
                per = [F(0) if t == -100 else F(-lp[r, t]) for r, t in enumerate(tgt)]
                if red == "none":
                    want = np.array(per, dtype=F)
                else:
                    acc, cnt = F(0), F(0)
                    for r in range(rows):         # one thread per row (rows < 32)
                        if tgt[r] != -100:
                            acc, cnt = F(acc + F(F(0) - lp[r, tgt[r]])), F(cnt + F(1))
                    want = np.array([F(acc / cnt)], dtype=F)
                check(f"xent {red} {dt} {rows}x{n}", out, to_bits(want, dt), dt)
    # many rows: the sum's configuration changes with rows (warps per row)
    for rows, n in ((40, 33), (700, 8), (2, 70000), (1, 300000)):
        x = rng.normal(0, 1, (rows, n)).astype(F)
        words = [f"{w:x}" for w in to_bits(x, "f32").ravel()]
        st, out = run("sum", "f32", rows, n, words)
        c = reduce_config(rows, n)
        want = np.array([row_sum(c, x[r], r) for r in range(rows)], dtype=F)
        check(f"sum f32 {rows}x{n} (config {c})", out, to_bits(want, "f32"), "f32")
    if failures:
        print(f"{failures} comparison(s) failed")
        return 1
    print("all torch plan comparisons agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
