"""shaped_xent_check.py — cross_entropy's correctly rounded reference (from
`ulpbench --dump`) bit for bit against an independent computation: the
loss log(sum_k exp(x_k)) - x_t written out from PyTorch's documentation
of cross_entropy (reduction='none', no weights), in mpmath at 256 bits,
converted to an exact fraction and rounded to the dtype by hand (round
half to even).  At 256 bits the computed loss is within 2^-240 relative
of the exact one, so it rounds as the exact loss does unless it lies that
close to a midpoint (then the row is counted, not compared; none is
expected in random data).  Pure Python besides mpmath (no numpy).

  shaped_xent_check.py DUMP DTYPE    exit 0 when every row agrees
"""
import sys
from fractions import Fraction

import mpmath

import fracfmt

CODE = {'f32': 'f', 'f16': 'e'}


def read_npy(path):
    shape, vals, _ = fracfmt.read_npy(path)
    return shape, vals


def round_to(q, dt):  # (value, distance to the nearest midpoint in quanta)
    v, rest = fracfmt.round_rest(q, CODE[dt])
    return v, (abs(rest - Fraction(1, 2)) if q != 0 else Fraction(1, 2))


def main():
    d, dt = sys.argv[1], sys.argv[2]
    (rows, cols), x = read_npy('%s/cross_entropy.%s.input.x.npy' % (d, dt))
    _, t = read_npy('%s/cross_entropy.%s.input.target.npy' % (d, dt))
    _, ref = read_npy('%s/cross_entropy.%s.out.ref.npy' % (d, dt))
    mpmath.mp.prec = 256
    bad = close = 0
    for i in range(rows):
        row = [mpmath.mpf(v) for v in x[i * cols:(i + 1) * cols]]  # exact
        m = max(row)
        loss = mpmath.log(mpmath.fsum(mpmath.exp(v - m) for v in row)) - (row[t[i]] - m)
        man, e = loss.man_exp if loss else (0, 0)
        # int(): with mpmath's gmpy2 backend these are gmpy2.mpz, which
        # Fraction does not take
        want, dist = round_to(Fraction(int(man)) * Fraction(2) ** int(e), dt)
        if dist < Fraction(1, 2 ** 200):
            close += 1
        elif want != ref[i]:
            bad += 1
            print('row %d: ref %r, expected %r (loss %s)' % (i, ref[i], want, loss))
    print('cross_entropy %s: %d rows, %d differ, %d too close to a midpoint' %
          (dt, rows, bad, close))
    sys.exit(1 if bad else 0)


main()
