"""shaped_torch.py — the shaped ops' correctly rounded reference (from
`ulpbench --dump`) against Debian's PyTorch on the CPU in float64.

Why this is an independent check: PyTorch's float64 result comes from its
own code (log_softmax and nll_loss; native_layer_norm_backward, the
function autograd calls for layer_norm's backward) with a relative error
near 2^-52 per operation, some 2^29 times finer than a binary32 ulp.  So
the correctly rounded binary32 (or binary16) value of the exact result
must lie within half an ulp of torch's float64 value, up to float64's own
error (bounded here by TOL times the magnitude of the output's terms):
a reference off by one rounding or more, or computing another formula,
fails.

  shaped_torch.py xent DUMP DTYPE      cross_entropy(x, target, 'none')
  shaped_torch.py lnbwd DUMP DTYPE     layer norm backward: dx, dweight,
                                       dbias at the dumped mean and rstd
"""
import sys

import numpy as np
import torch

TOL = 1e-12  # float64's error, relative to the terms' magnitude (generous)


def load(d, op, dt, what):
    """A dumped array; bf16 ('<u2' bits) as the float32 of the same value."""
    a = np.load('%s/%s.%s.%s.npy' % (d, op, dt, what))
    if dt == 'bf16' and a.dtype == np.uint16:
        a = (a.astype(np.uint32) << 16).view(np.float32)
    return a


def ulp(ref, dt):  # the spacing above |ref| in dt
    if dt == 'bf16':
        return np.spacing(np.abs(ref).astype(np.float32)).astype(np.float64) * 65536
    return np.spacing(np.abs(ref)).astype(np.float64)


def check(name, ref, t64, scale):
    """Every ref within half its ulp of t64, up to TOL * scale."""
    dt = name.split()[1]
    ref = np.asarray(ref)
    err = np.abs(ref.astype(np.float64) - t64)
    bad = err > 0.5 * ulp(ref, dt) + TOL * scale
    print('%s: %d elements, %d off' % (name, ref.size, int(bad.sum())))
    if bad.any():
        i = np.flatnonzero(bad)[0]
        print('  first off: element %d ref %r torch64 %r' % (i, ref.flat[i], t64.flat[i]))
    return not bad.any()


def xent(d, dt):
    x = load(d, 'cross_entropy', dt, 'input.x').astype(np.float64)
    t = load(d, 'cross_entropy', dt, 'input.target').astype(np.int64)
    ref = load(d, 'cross_entropy', dt, 'out.ref')
    loss = torch.nn.functional.cross_entropy(torch.from_numpy(x), torch.from_numpy(t),
                                             reduction='none').numpy()
    scale = np.abs(x).max(axis=1) + np.abs(loss)  # the terms: max, x_t, log
    return check('cross_entropy %s out' % dt, ref, loss, scale)


def lnbwd(d, dt):
    op = 'layer_norm_bwd'
    f = {k: torch.from_numpy(load(d, op, dt, 'input.' + k).astype(np.float64))
         for k in ('dout', 'x', 'weight', 'mean', 'rstd')}
    rows, cols = f['x'].shape
    dx, dw, db = torch.ops.aten.native_layer_norm_backward(
        f['dout'], f['x'], [cols], f['mean'].reshape(rows, 1), f['rstd'].reshape(rows, 1),
        f['weight'], torch.zeros(cols, dtype=torch.float64), [True, True, True])
    g = (f['weight'] * f['dout']).abs()
    xh = ((f['x'] - f['mean'].reshape(rows, 1)) * f['rstd'].reshape(rows, 1)).abs()
    rs = f['rstd'].reshape(rows, 1)
    # dx's terms: rstd * (|g| + mean |g| + |xhat| mean |g xhat|), per row
    sdx = rs * (g + g.mean(1, keepdim=True) + xh * (g * xh).mean(1, keepdim=True))
    sdw = (f['dout'].abs() * xh).sum(0)
    sdb = f['dout'].abs().sum(0)
    ok = check('%s %s dx' % (op, dt), load(d, op, dt, 'dx.ref'), dx.numpy(), sdx.numpy())
    ok &= check('%s %s dweight' % (op, dt), load(d, op, dt, 'dweight.ref'), dw.numpy(),
                sdw.numpy())
    ok &= check('%s %s dbias' % (op, dt), load(d, op, dt, 'dbias.ref'), db.numpy(),
                sdb.numpy())
    return ok


if __name__ == '__main__':
    fn = {'xent': xent, 'lnbwd': lnbwd}[sys.argv[1]]
    sys.exit(0 if fn(sys.argv[2], sys.argv[3]) else 1)
