"""torch_ew.py — ulpbench's torch plans against a real PyTorch's autograd.

  torch_ew.py UB DIR     runs UB (the ulpbench binary) on inputs written to
                         DIR and compares, bit for bit, for f32 and bf16

For every op whose PyTorch computation, forward and backward, is a chain of
IEEE operations (+ - * / sqrt, each kernel rounding to the dtype), PyTorch's
CPU kernels compute what its CUDA kernels compute, so a CPU run is an
independent oracle for the torch plan: the torch row must match it
everywhere.  (Ops with exp, sin, tanh, rsqrt, ... are left out: CPU and GPU
math libraries differ.)  In f32 the kernels generated from the math compute
the same chains, so nofma and rn must match too.  Prints one line per
comparison; exits 1 on any mismatch.
"""
import subprocess
import sys

import numpy as np
import torch

N = 20_000

# op name in ulpbench: (how PyTorch computes it, inputs it takes)
OPS = {
    "sqrt": (lambda x, g: torch.sqrt(x), ("x",)),
    "reciprocal": (lambda x, g: torch.reciprocal(x), ("x",)),
    "atan_bwd": (lambda x, g: grad(torch.atan, x, g), ("x", "g")),
    "log_bwd": (lambda x, g: grad(torch.log, x, g), ("x", "g")),
    "log1p_bwd": (lambda x, g: grad(torch.log1p, x, g), ("x", "g")),
    "sqrt_bwd": (lambda x, g: grad(torch.sqrt, x, g), ("x", "g")),
    "reciprocal_bwd": (lambda x, g: grad(torch.reciprocal, x, g), ("x", "g")),
}


def grad(f, x, g):
    x = x.clone().requires_grad_()
    f(x).backward(g)
    return x.grad


def bits(dtype, n, rng):
    """n values: half uniform in [-8, 8] (where the chains round most),
    half any encoding (every binade, inf, NaN)."""
    if dtype == "f32":
        raw = rng.integers(0, 2**32, size=n, dtype=np.uint64).astype(np.uint32).view(np.float32)
        v = raw.copy()
        v[: n // 2] = rng.uniform(-8, 8, n // 2).astype(np.float32)
        return v
    raw = rng.integers(0, 2**16, size=n, dtype=np.uint64).astype(np.uint16)
    u = torch.from_numpy(rng.uniform(-8, 8, n // 2).astype(np.float32)).to(torch.bfloat16)
    raw[: n // 2] = u.view(torch.int16).numpy().view(np.uint16)
    return raw


def as_torch(dtype, a):
    if dtype == "f32":
        return torch.from_numpy(a)
    return torch.from_numpy(a.view(np.int16).copy()).view(torch.bfloat16)


def same(dtype, got, want):
    """Encodings equal, any NaN equal to any NaN."""
    w = want.detach()
    if dtype == "f32":
        wb, gb = w.numpy().view(np.uint32), got.view(np.uint32)
        wn, gn = np.isnan(w.numpy()), np.isnan(got)
    else:
        wb = w.view(torch.int16).numpy().view(np.uint16)
        gb = got.view(np.uint16)
        wn = torch.isnan(w).numpy()
        gn = torch.isnan(as_torch(dtype, got)).numpy()
    return (wb == gb) | (wn & gn)


def run(ub, d, op, dtype, inputs):
    args = [ub, "--op", op, "--dtype", dtype, "--mode", "fma,nofma,rn", "--dump", f"{d}/dump"]
    for name in inputs:
        args += ["--input", f"{name}={d}/{op}.{dtype}.{name}.npy"]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)


def main(ub, d):
    rng = np.random.default_rng(20261130)
    bad = 0
    for dtype in ("f32", "bf16"):
        for op, (f, inputs) in OPS.items():
            if op == "atan_bwd" and dtype == "bf16":
                continue  # its hand-written kernel is f32 only (:dtypes)
            vals = {}
            for name in ("x", "g"):
                vals[name] = bits(dtype, N, rng)
            for name in inputs:
                np.save(f"{d}/{op}.{dtype}.{name}.npy", vals[name])
            run(ub, d, op, dtype, inputs)
            want = f(as_torch(dtype, vals["x"]), as_torch(dtype, vals["g"]))
            modes = ("torch", "nofma", "rn") if dtype == "f32" else ("torch",)
            for mode in modes:
                got = np.load(f"{d}/dump/{op}.{dtype}.{mode}.npy")
                ok = same(dtype, got, want)
                print(f"{op} {dtype} {mode}: {int((~ok).sum())} of {N} differ "
                      f"from torch {torch.__version__}")
                if not ok.all():
                    i = int(np.argmax(~ok))
                    print(f"  first: i={i} x={vals['x'][i]!r} g={vals['g'][i]!r} "
                          f"got={got[i]!r} torch={want[i]!r}")
                    bad += 1
    return bad


if __name__ == "__main__":
    sys.exit(1 if main(sys.argv[1], sys.argv[2]) else 0)
