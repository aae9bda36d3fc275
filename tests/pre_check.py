#!/usr/bin/env python3
"""pre_check.py WHAT DIR...: checks on the inputs ulpbench dumped (--dump)
for an op with a :pre, computed here from the .npy files with exact
rational arithmetic (fractions), independently of ulpbench.

  disc DIR        every element of disc.f64.input.{a,b,c}.npy satisfies
                  -10 <= a, b, c <= 10 and b*b >= 4*a*c, exactly;
  box DIR LO HI   every x of box.f64.input.x.npy is finite, LO <= x <= HI;
  decades DIR     prints the share of box.f64.input.x.npy in [1, 10),
                  [10, 100), [100, 1000] as three percentages;
  twopi|ring|pts|near DIR  every x of NAME.f64.input.x.npy satisfies the
                  :pre of that core of tests/pre.test: 1 <= x <= 2 pi (x a
                  double: x <= 2 pi exactly when x <= 2 * math.pi, the
                  double below 2 pi); 1 <= |x| < 2; x in {0, 10, 2.5};
                  |x - 1| < 1e-9, and pts draws each of its points.
Exits 1 (with the first offending element) when a check fails."""
import fractions
import math
import struct
import sys


def npy_f64(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:6] == b"\x93NUMPY", path
    hlen = struct.unpack("<H", data[8:10])[0]
    header = data[10:10 + hlen].decode()
    assert "'<f8'" in header, header
    body = data[10 + hlen:]
    return list(struct.unpack("<%dd" % (len(body) // 8), body))


def main():
    what, d = sys.argv[1], sys.argv[2]
    if what == "disc":
        a, b, c = (npy_f64("%s/disc.f64.input.%s.npy" % (d, v)) for v in "abc")
        for i, (x, y, z) in enumerate(zip(a, b, c)):
            if any(math.isnan(v) or not -10 <= v <= 10 for v in (x, y, z)):
                print("element %d outside the box: %r %r %r" % (i, x, y, z))
                return 1
            fx, fy, fz = (fractions.Fraction(v) for v in (x, y, z))
            if fy * fy < 4 * fx * fz:
                print("element %d fails b*b >= 4ac: %r %r %r" % (i, x, y, z))
                return 1
        print("%d elements satisfy :pre" % len(a))
    elif what == "box":
        lo, hi = float(sys.argv[3]), float(sys.argv[4])
        for i, x in enumerate(npy_f64(d + "/box.f64.input.x.npy")):
            if not (math.isfinite(x) and lo <= x <= hi):
                print("element %d outside [%r, %r]: %r" % (i, lo, hi, x))
                return 1
    elif what in ("twopi", "ring", "pts", "near"):
        F = fractions.Fraction
        holds = {
            "twopi": lambda x: 1 <= x <= 2 * math.pi,
            "ring": lambda x: 1 <= abs(x) < 2,
            "pts": lambda x: x in (0, 10, 2.5),
            "near": lambda x: abs(F(x) - 1) < F("1e-9"),
        }[what]
        xs = npy_f64("%s/%s.f64.input.x.npy" % (d, what))
        for i, x in enumerate(xs):
            if not (math.isfinite(x) and holds(x)):
                print("element %d fails %s's :pre: %r" % (i, what, x))
                return 1
        if what == "pts" and len(set(xs)) != 3:
            print("pts drew %s, not each of 0, 10, 2.5" % sorted(set(xs)))
            return 1
    elif what == "decades":
        xs = npy_f64(d + "/box.f64.input.x.npy")
        share = [sum(1 for x in xs if lo <= x < hi) * 100 // len(xs)
                 for lo, hi in ((1, 10), (10, 100), (100, 1001))]
        print(" ".join(str(s) for s in share))
    return 0


if __name__ == "__main__":
    sys.exit(main())
