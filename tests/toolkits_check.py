"""toolkits_check.py — the figures of a run of several CUDA toolkits
(tests/toolkits.test), from independent sources.

Usage: toolkits_check.py DIR TKDIR... -- OP...

DIR holds, per op, OP.csv (`ulpbench --op OP --toolkit A,B,... --csv`) and
the --dump of the same run in DIR/dump (inputs, every row's results).  For
each row of a mode:
  - cr_mismatch: its results against the correctly rounded value computed
    here with mpmath at 200 bits and rounded once to binary32 (ties to
    even, subnormals at 2^-149, overflow to inf), not ulpbench's reference;
  - toolkit_mismatch, toolkit_max_dist: its results against the first
    toolkit's row of the mode, bit by bit, counted here with NumPy.
Then each toolkit's own NVRTC (TKDIR: where `ulpbench toolkits` found it,
in --toolkit's order; its libnvrtc loaded here with ctypes, not through
ulpbench) compiles erff and tanhf, and their PTX is
checked for what explains the rows that differ: erff's coefficients (the
0fXXXXXXXX constants) differ where erf's results do, and -use_fast_math
makes tanhf one tanh.approx.f32 in the toolkits whose fastmath tanh row
says tanh.approx.  Prints one line per check; exit 1 on a failure."""
import csv
import ctypes
import glob
import os
import re
import sys
from fractions import Fraction

import mpmath
import numpy as np

mpmath.mp.prec = 200
fails = 0


def check(what, ok, detail=""):
    global fails
    print(("ok   " if ok else "FAIL ") + what + (": " + detail if detail and not ok else ""))
    fails += not ok


def f32(bits):
    return np.array(bits, dtype=np.uint32).view(np.float32)


def fraction(v):
    """An mpf, exactly, as a Fraction."""
    sign, man, exp, _ = v._mpf_       # (-1)^sign * man * 2^exp
    return (-1) ** sign * Fraction(int(man)) * (Fraction(2) ** int(exp))


def round32(v, negzero):
    """The binary32 nearest the exact value v (a Fraction, or an mpf read
    exactly), ties to even, as its bits; an exact zero is -0 when negzero
    (IEEE's sign of the expression's zero), a result that rounds to zero
    keeps v's sign."""
    if not isinstance(v, Fraction):
        if v != 0 and abs(v) < mpmath.mpf(2) ** -200:   # far below 2^-150
            return 0x80000000 if v < 0 else 0
        if abs(v) > mpmath.mpf(2) ** 200:                # far above the largest
            return 0xff800000 if v < 0 else 0x7f800000
        v = fraction(v)
    if v == 0:
        return 0x80000000 if negzero else 0
    a = abs(v)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1                                # 2^e <= a < 2^(e+1)
    q = Fraction(2) ** (max(e, -126) - 23)
    n, rem = divmod(a, q)
    n = int(n) + (rem > q / 2 or (rem == q / 2 and int(n) % 2 == 1))
    r = n * q
    if r > Fraction(2) ** 127 * (2 - Fraction(2) ** -23):
        bits = 0x7f800000
    else:
        bits = int(np.float32(float(r)).view(np.uint32))   # exact: 24 bits
    return bits | (0x80000000 if v < 0 else 0)


SQRT2 = mpmath.sqrt(2)
EXACT = {
    "exp": lambda x: mpmath.exp(x),
    "tanh": lambda x: mpmath.tanh(x),
    "erf": lambda x: mpmath.erf(x),
    "gelu": lambda x: x * (1 + mpmath.erf(x / SQRT2)) / 2,
    "atan_bwd": lambda x, g: fraction(g) / (fraction(x) ** 2 + 1),  # exact
}


def exact(op, args):
    """The correctly rounded bits of op at args, or None where an input is
    not finite (there the catalog's expression decides, NaN or a limit:
    ulpbench's own reference is taken)."""
    vals = [float(a) for a in args]
    if not all(np.isfinite(v) for v in vals):
        return None
    # a zero result takes the sign of g (g / (x*x + 1)) or of x (the rest
    # are odd, or x times a positive factor)
    negzero = np.signbit(vals[-1] if op == "atan_bwd" else vals[0])
    return round32(EXACT[op](*[mpmath.mpf(v) for v in vals]), negzero)


def same(a, b):
    nan = 0x7f800000
    return a == b or ((a & 0x7fffffff) > nan and (b & 0x7fffffff) > nan)


def ordered(b):
    return b if b < 0x80000000 else 0x80000000 - (b - 0x80000000) - 1


def distance(a, b):
    """ulpbench's ub_distance: ordered encodings; NaN vs NaN 0, NaN vs a
    number 2^64 - 1."""
    na, nb = (a & 0x7fffffff) > 0x7f800000, (b & 0x7fffffff) > 0x7f800000
    if na or nb:
        return 0 if na and nb else 2 ** 64 - 1
    return abs(ordered(a) - ordered(b))


def check_op(d, op):
    rows = list(csv.DictReader(open(os.path.join(d, op + ".csv"))))
    names = ["x", "g"] if op == "atan_bwd" else ["x"]
    ins = [np.load(os.path.join(d, "dump", "%s.f32.input.%s.npy" % (op, n))).view(np.uint32)
           for n in names]
    theirs = np.load(os.path.join(d, "dump", "%s.f32.ref.npy" % op)).view(np.uint32)
    ref = [exact(op, [f32(int(a[i])) for a in ins]) for i in range(len(ins[0]))]
    agree = sum(r is None or r == int(theirs[i]) for i, r in enumerate(ref))
    check("%s: ulpbench's correctly rounded reference is mpmath's at every finite "
          "input (%d of %d agree)" % (op, agree, len(ref)), agree == len(ref))
    ref = [int(theirs[i]) if r is None else r for i, r in enumerate(ref)]
    first = {}
    for r in rows:
        if r["mode"] == "torch":
            continue
        mode = r["mode"].split("@")[0]
        y = np.load(os.path.join(d, "dump", "%s.f32.%s.npy" % (op, r["mode"]))).view(np.uint32)
        bad = sum(not same(int(y[i]), ref[i]) for i in range(len(y)))
        check("%s %s: cr_mismatch %s (mpmath: %d)" % (op, r["mode"], r["cr_mismatch"], bad),
              int(r["cr_mismatch"]) == bad)
        if mode not in first:
            first[mode] = y
            check("%s %s: no toolkit columns on the first toolkit's row" % (op, r["mode"]),
                  r["toolkit_mismatch"] == "" and r["toolkit_max_dist"] == "")
            continue
        x = first[mode]
        diff = [i for i in range(len(y)) if int(x[i]) != int(y[i])]
        dist = max([distance(int(x[i]), int(y[i])) for i in diff] or [0])
        check("%s %s: toolkit_mismatch %s (NumPy: %d), toolkit_max_dist %s (%d)" %
              (op, r["mode"], r["toolkit_mismatch"], len(diff), r["toolkit_max_dist"], dist),
              int(r["toolkit_mismatch"]) == len(diff) and int(r["toolkit_max_dist"]) == dist)
    return rows


def nvrtc_ptx(tkdir, src, opts):
    """src compiled by the NVRTC of the toolkit at tkdir (its builtins
    loaded first, as the wheels need), to PTX."""
    libdir = [l for l in (os.path.join(tkdir, s) for s in ("lib64", "lib", "cuda_nvrtc/lib"))
              if glob.glob(os.path.join(l, "libnvrtc.so*"))][0]
    for b in glob.glob(os.path.join(libdir, "libnvrtc-builtins.so.*.*")):
        ctypes.CDLL(b, mode=os.RTLD_LOCAL)
    lib = sorted(glob.glob(os.path.join(libdir, "libnvrtc.so*")))[0]
    nv = ctypes.CDLL(lib, mode=os.RTLD_LOCAL)
    prog = ctypes.c_void_p()
    assert nv.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"k.cu", 0, None, None) == 0
    argv = (ctypes.c_char_p * len(opts))(*[o.encode() for o in opts])
    rc = nv.nvrtcCompileProgram(prog, len(opts), argv)
    size = ctypes.c_size_t()
    nv.nvrtcGetPTXSize(prog, ctypes.byref(size))
    buf = ctypes.create_string_buffer(size.value)
    nv.nvrtcGetPTX(prog, buf)
    return rc, buf.value.decode()


def main():
    d = sys.argv[1]
    sep = sys.argv.index("--")
    libdirs, ops = sys.argv[2:sep], sys.argv[sep + 1:]
    rows = {op: check_op(d, op) for op in ops}
    kernel = 'extern "C" __global__ void k(const float *x, float *y) { y[0] = %s(x[0]); }'
    consts, tanh_approx = {}, {}
    for libdir in libdirs:
        rc, ptx = nvrtc_ptx(libdir, kernel % "erff", ["-arch=compute_90"])
        consts[libdir] = sorted(set(re.findall(r"0f[0-9A-F]{8}", ptx)))
        rc2, ptx2 = nvrtc_ptx(libdir, kernel % "tanhf", ["-arch=compute_90", "-use_fast_math"])
        check("NVRTC of %s compiles erff and tanhf" % libdir, rc == 0 and rc2 == 0)
        tanh_approx[libdir] = "tanh.approx.f32" in ptx2
    first = libdirs[0]
    by_mode = {r["mode"]: r for r in rows.get("erf", [])}
    for k, libdir in enumerate(libdirs[1:] if "erf" in rows else [], 1):
        tk = [r["mode"].split("@")[1] for r in rows["erf"] if "@" in r["mode"]][k]
        changed = int(by_mode["fma@" + tk]["toolkit_mismatch"]) > 0
        check("erf fma@%s: results differ from the first toolkit's (%s) exactly when "
              "erff's PTX constants do" % (tk, changed), changed == (consts[libdir] != consts[first]))
        if "tanh" not in rows:
            continue
        tr = {r["mode"]: r for r in rows["tanh"]}["fastmath@" + tk]
        check("tanh fastmath@%s: tanh.approx in its approx column exactly when its "
              "NVRTC makes tanh.approx.f32 of tanhf" % tk,
              ("tanh.approx" in tr["approx"].split("|")) == tanh_approx[libdir])
        if tanh_approx[libdir] != tanh_approx[first]:
            check("tanh fastmath@%s: toolkit_ptxdiff names tanh.approx.f32" % tk,
                  "tanh.approx.f32" in tr["toolkit_ptxdiff"], tr["toolkit_ptxdiff"])
    print("%d failed" % fails)
    sys.exit(1 if fails else 0)


main()
