"""html_glance_check.py — the HTML page's first screen ("At a glance")
against an independent computation from a run's --dump and --csv.

    python3 html_glance_check.py PAGE.html DUMPDIR CSV

For atan_bwd (inputs x, g; f32) with modes fma and nofma: each row's line
must say what the CSV's torch_mismatch says (equal bit for bit, or the
count); a torch range "P% at a <= |x| < b" must hold at least P% of the
elements whose bits differ from the torch plan's (counted here with
NumPy); the far region "N elements ... at a <= |x| < inf" must be the N
elements with a finite |x| >= a; and "max M ulp outside the far region"
must be the largest error, computed here exactly with rationals
(g / (x*x + 1) as a Fraction, ulp as docs/metrics.md defines it), among
the elements with |x| < a (the far region is x's overflow, x*x >= 2^128).
Every edge the page prints is a power of two (a binade's), given to 3
digits, so it is read back as the nearest one."""
import csv
import html
import math
import re
import sys
from fractions import Fraction

import numpy as np


def glance_rows(path):
    s = open(path, encoding="utf-8").read()
    t = s[s.index('<table class="glance">'):]
    t = t[:t.index("</table>")]
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", t, re.S)[1:]:
        cells = [re.sub(r"<[^>]+>", "", re.sub(r"<br>", " / ", c))
                 for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        cells = [re.sub(r"\s+", " ", html.unescape(c)).strip() for c in cells]
        rows[cells[0]] = cells[1:]
    return rows


def pow2(text):
    return 2.0 ** round(math.log2(float(text)))


def ulp(v):
    """The spacing of f32 at the exact value v (a Fraction): at an exact
    power of two the smaller one below it; subnormal spacing at the bottom."""
    a = abs(v)
    if a < Fraction(2) ** -126:
        return Fraction(2) ** -149
    e = math.floor(math.log2(a))
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    return Fraction(2) ** (e - 24 if a == Fraction(2) ** e else e - 23)


def main(page, dump, csvpath):
    rows = glance_rows(page)
    table = {r["mode"]: r for r in csv.DictReader(open(csvpath))}
    x = np.load(f"{dump}/atan_bwd.f32.input.x.npy")
    g = np.load(f"{dump}/atan_bwd.f32.input.g.npy")
    torch = np.load(f"{dump}/atan_bwd.f32.torch.npy").view(np.uint32)
    bad = []
    for mode in ("fma", "nofma"):
        y = np.load(f"{dump}/atan_bwd.f32.{mode}.npy")
        vs_torch, rounding, far = rows[mode]
        tm = int(table[mode]["torch_mismatch"])
        if tm == 0:
            if not vs_torch.startswith("equal, bit for bit"):
                bad.append(f"{mode}: {vs_torch!r} for torch_mismatch 0")
        else:
            if not vs_torch.startswith(f"differs in {tm:,} of {len(x):,} "):
                bad.append(f"{mode}: {vs_torch!r} for torch_mismatch {tm}")
            m = re.search(r"(\d+)% at ([0-9.e+-]+) ≤ \|x\| < ([0-9.e+-]+)", vs_torch)
            if not m:
                bad.append(f"{mode}: no range of x in {vs_torch!r}")
            else:
                differ = y.view(np.uint32) != torch
                lo, hi = pow2(m.group(2)), pow2(m.group(3))
                inside = differ & (np.abs(x) >= lo) & (np.abs(x) < hi)
                share = inside.sum() / differ.sum()
                if share * 100 < int(m.group(1)):
                    bad.append(f"{mode}: {share:.4f} of the differences in [{lo}, {hi})")
        m = re.match(r"([0-9,]+) elements \(.*at ([0-9.e+-]+) ≤ \|x\| < inf$", far)
        if not m:
            bad.append(f"{mode}: far region {far!r} not of the expected form")
            continue
        a = pow2(m.group(2))
        n = int(m.group(1).replace(",", ""))
        there = (np.abs(x) >= a) & np.isfinite(x)
        if n != int(there.sum()):
            bad.append(f"{mode}: {n} far elements, but {there.sum()} with {a} <= |x| < inf")
        m = re.match(r"max ([0-9.e+-]+) ulp outside the far region", rounding)
        ref = np.load(f"{dump}/atan_bwd.f32.ref.npy").view(np.uint32)
        rest = (np.abs(x) < a) & (y.view(np.uint32) != ref)
        worst = Fraction(0)
        for xi, gi, yi in zip(x[rest], g[rest], y[rest]):
            v = Fraction(float(gi)) / (Fraction(float(xi)) ** 2 + 1)
            worst = max(worst, abs(Fraction(float(yi)) - v) / ulp(v))
        if not m or abs(float(m.group(1)) - float(worst)) > 5e-4 * float(worst):
            bad.append(f"{mode}: {rounding!r}, but the largest error at |x| < {a} is "
                       f"{float(worst):.6g} ulp")
    for b in bad:
        print("html_glance_check:", b)
    print(f"html_glance_check: {len(bad)} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
