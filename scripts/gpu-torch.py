"""gpu-torch.py — ulpbench's torch plans against PyTorch on a CUDA GPU, bit
for bit, for every op of the catalog in f32, f16 and bf16.

  python3 scripts/gpu-torch.py UB WORKDIR [-n N] [--jobs J] [--op LIST]

For each op and dtype, UB (the ulpbench binary) runs the op on the GPU
(`--backend cuda`, mode nofma, N inputs; shaped ops at their default shape
and at 128x4096) and dumps its inputs and its torch row (`--dump`); this
script gives PyTorch the same inputs on the GPU and compares its output
with the torch row, encoding by encoding (any NaN equal to any NaN).

How PyTorch is asked:
- forward ops: the torch function (torch.exp, F.gelu, ...);
- backward ops: autograd, f(x).backward(g) and x.grad (the plan of an op
  whose derivative uses the forward's result computes that result as
  PyTorch's forward kernel does, as autograd saves it);
- shaped ops: torch.sum, softmax, log_softmax, F.layer_norm (with
  native_layer_norm for mean and rstd), native_layer_norm_backward,
  F.rms_norm, F.cross_entropy(reduction='none').

Prints one line per op, dtype and output: n, how many differ, the largest
distance in units of the format, the first differing element.  PyTorch's
outputs of the shaped ops are kept beside the dumps, as
OP.DTYPE.OUTPUT.pytorch.npy.  Exit status
0 whatever the counts (they are the result); 2 if the script itself fails.
"""
import argparse
import concurrent.futures as cf
import os
import subprocess
import sys

import numpy as np
import torch
import torch.nn.functional as F

BACKEND = "cuda"
ARCH = []
DEV = "cuda" if torch.cuda.is_available() else "cpu"

FWD = {
    "atan": torch.atan, "tanh": torch.tanh, "sigmoid": torch.sigmoid,
    "exp": torch.exp, "expm1": torch.expm1, "log": torch.log, "log1p": torch.log1p,
    "sin": torch.sin, "cos": torch.cos, "sqrt": torch.sqrt, "rsqrt": torch.rsqrt,
    "reciprocal": torch.reciprocal, "asin": torch.asin, "acos": torch.acos,
    "erf": torch.erf, "gelu": F.gelu,
    "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
    "silu": F.silu, "softplus": F.softplus, "elu": F.elu, "mish": F.mish,
}
SHAPED = ["sum", "softmax", "log_softmax", "rms_norm", "layer_norm",
          "layer_norm_bwd", "rms_norm_bwd", "cross_entropy"]
TDT = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
UDT = {"f32": np.uint32, "f16": np.uint16, "bf16": np.uint16}


def load(path, dt):
    """A dumped array as a torch tensor on the GPU (bf16 arrives as bits)."""
    a = np.load(path)
    if a.dtype.kind in "iu" and dt == "bf16" and a.dtype.itemsize == 2:
        return torch.from_numpy(a.view(np.int16).copy()).view(torch.bfloat16).to(DEV)
    if a.dtype.kind in "iu":
        return torch.from_numpy(a.astype(np.int64)).to(DEV)
    return torch.from_numpy(a).to(DEV)


def bits(t, dt):
    t = t.detach().cpu()
    if dt == "bf16":
        return t.view(torch.int16).numpy().view(np.uint16)
    return t.numpy().view(UDT[dt])


def ordered(u, dt):
    """Encodings to integers in the order of their values (-0 just below +0)."""
    w = 32 if dt == "f32" else 16
    u = u.astype(np.int64)
    sign = u >> (w - 1)
    mag = u & ((1 << (w - 1)) - 1)
    return np.where(sign == 1, -1 - mag, mag)


def compare(name, dt, plan_path, got):
    """One line: the plan's dump against PyTorch's tensor."""
    plan = np.load(plan_path)
    if dt == "bf16" and plan.dtype != np.uint16:
        plan = plan.astype(np.float32).view(np.uint32) >> 16
    pb = plan.reshape(-1).view(UDT[dt]) if plan.dtype.itemsize == np.dtype(UDT[dt]).itemsize \
        else plan.reshape(-1)
    gb = bits(got.reshape(-1), dt)
    if pb.shape != gb.shape:
        return "%-28s %-4s shapes differ: plan %s, torch %s" % (name, dt, plan.shape, tuple(got.shape))
    pt = load(plan_path, dt).reshape(-1).float().cpu().numpy()
    gt = got.reshape(-1).detach().float().cpu().numpy()
    nan = np.isnan(pt) & np.isnan(gt)
    diff = (pb != gb) & ~nan
    n, k = pb.size, int(diff.sum())
    line = "%-28s %-4s n=%-8d differ=%-8d" % (name, dt, n, k)
    if k:
        d = np.abs(ordered(pb, dt) - ordered(gb, dt))[diff]
        i = int(np.flatnonzero(diff)[0])
        line += " max_dist=%d first: i=%d plan=0x%x torch=0x%x" % (int(d.max()), i, pb[i], gb[i])
    return line


def ub_run(args, ub, cwd):
    r = subprocess.run([ub] + args + ARCH + ["-q"], cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    return r.returncode, r.stdout


def ew_job(ub, work, op, dt, n):
    """Runs op in dt on the GPU (and the forward op for a saved y)."""
    d = os.path.join(work, "%s.%s" % (op, dt))
    rc, out = ub_run(["--op", op, "--dtype", dt, "--mode", "nofma", "-n", str(n),
                      "--backend", BACKEND, "--dump", d], ub, work)
    if rc:
        return op, dt, d, "ulpbench exit %d: %s" % (rc, out.strip().splitlines()[-1] if out.strip() else "")
    return op, dt, d, None


def ew_check(op, dt, d):
    p = "%s/%s.%s." % (d, op, dt)
    x = load(p + "input.x.npy", dt)
    if op in FWD:
        with torch.no_grad():
            got = FWD[op](x)
    else:
        g = load(p + "input.g.npy", dt)
        x = x.clone().requires_grad_()
        FWD[op[:-4]](x).backward(g)
        got = x.grad
    return [compare(op, dt, p + "torch.npy", got)]


def shaped_job(ub, work, op, dt, shape):
    d = os.path.join(work, "%s.%s.%s" % (op, dt, shape.replace(",", "x")))
    args = ["--op", op, "--dtype", dt, "--mode", "nofma", "--backend", BACKEND, "--dump", d]
    if shape != "default":
        args += ["--shape", shape]
    rc, out = ub_run(args, ub, work)
    return op, dt, d, None if rc == 0 else "ulpbench exit %d: %s" % (rc, out.strip()[-300:])


def shaped_check(op, dt, d):
    p = "%s/%s.%s." % (d, op, dt)
    inp = lambda k: load(p + "input.%s.npy" % k, dt if k not in ("mean", "rstd") else "f32")
    x = inp("x")
    C = x.shape[-1]
    outs = {}
    with torch.no_grad():
        if op == "sum":
            outs["out"] = x.sum(-1)
        elif op == "softmax":
            outs["out"] = torch.softmax(x, -1)
        elif op == "log_softmax":
            outs["out"] = torch.log_softmax(x, -1)
        elif op == "rms_norm":
            outs["out"] = F.rms_norm(x, (C,), inp("weight"), eps=1e-5)
        elif op == "layer_norm":
            o, m, r = torch.native_layer_norm(x, (C,), inp("weight"), inp("bias"), 1e-5)
            outs.update(out=o, mean=m.reshape(-1), rstd=r.reshape(-1))
        elif op == "layer_norm_bwd":
            w = inp("weight")
            dx, dw, db = torch.ops.aten.native_layer_norm_backward(
                inp("dout"), x, [C], inp("mean").reshape(-1, 1), inp("rstd").reshape(-1, 1),
                w, torch.zeros_like(w), [True, True, True])
            outs.update(dx=dx, dweight=dw, dbias=db)
        elif op == "rms_norm_bwd":
            if not hasattr(torch.ops.aten, "_fused_rms_norm_backward"):
                return ["%-28s %-4s no fused rms_norm backward in this PyTorch" % (op, dt)]
            dx, dw = torch.ops.aten._fused_rms_norm_backward(
                inp("dout"), x, [C], inp("rstd").reshape(-1, 1), inp("weight"), [True, True])
            outs.update(dx=dx, dweight=dw)
        elif op == "cross_entropy":
            outs["out"] = F.cross_entropy(x, inp("target"), reduction="none")
    lines = []
    for k, v in outs.items():
        path = p + "%s.torch.npy" % k
        name = "%s:%s %s" % (op, k, "x".join(map(str, x.shape)))
        if not os.path.exists(path):
            lines.append("%-28s %-4s no torch row (n/a in ulpbench)" % (name, dt))
            continue
        odt = dt if v.dtype == TDT[dt] else "f32"
        np.save(p + "%s.pytorch.npy" % k, v.detach().float().cpu().numpy())
        lines.append(compare(name, odt, path, v))
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ub")
    ap.add_argument("work")
    ap.add_argument("-n", type=int, default=65536)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--op", default="")
    ap.add_argument("--backend", default="cuda", help="sim: a dry run without a GPU")
    ap.add_argument("--arch", default="", help="ulpbench's --arch")
    a = ap.parse_args()
    global BACKEND, ARCH
    BACKEND = a.backend
    ARCH = ["--arch", a.arch] if a.arch else []
    os.makedirs(a.work, exist_ok=True)
    listed = subprocess.run([a.ub, "--list-ops"], stdout=subprocess.PIPE, text=True).stdout
    ops = [l.split()[0] for l in listed.splitlines() if l and not l[0].isspace()]
    if a.op:
        ops = [o for o in ops if o in a.op.split(",")]
    print("gpu-torch: torch %s (CUDA %s) on %s, %d ops, n=%d" % (
        torch.__version__, torch.version.cuda,
        torch.cuda.get_device_name(0) if DEV == "cuda" else "the CPU (no GPU)", len(ops), a.n))
    jobs = []
    with cf.ThreadPoolExecutor(a.jobs) as pool:
        for op in ops:
            for dt in ("f32", "f16", "bf16"):
                if op in SHAPED:
                    for shape in ("default", "128,4096"):
                        jobs.append(pool.submit(shaped_job, a.ub, a.work, op, dt, shape))
                else:
                    jobs.append(pool.submit(ew_job, a.ub, a.work, op, dt, a.n))
        results = [j.result() for j in jobs]
    totals = [0, 0]
    for op, dt, d, err in results:
        if err:
            print("%-28s %-4s skipped: %s" % (op, dt, err))
            continue
        try:
            lines = shaped_check(op, dt, d) if op in SHAPED else ew_check(op, dt, d)
        except Exception as e:  # one op's failure is reported, not fatal
            lines = ["%-28s %-4s torch failed: %s" % (op, dt, str(e).splitlines()[0][:200])]
        for l in lines:
            print(l, flush=True)
            if "differ=" in l:
                totals[0] += 1
                totals[1] += " differ=0 " not in l + " "
    print("gpu-torch: %d comparisons, %d with differences" % (totals[0], totals[1]))


if __name__ == "__main__":
    try:
        main()
    except Exception as e:
        print("gpu-torch: %s" % e, file=sys.stderr)
        sys.exit(2)
