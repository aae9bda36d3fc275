"""assert_matches_torch and assert_max_ulp: pytest-friendly checks whose
failure message says what differs, where, and how to see why.

Both run the engine with keep=True (every element's results and inputs)
on the one mode asked for; the message names the element: its index,
every input in hex and decimal, the mode's result, the torch plan's, the
correctly rounded one, the distance in units, the `ulpbench explain`
command that traces that input, and the seed and command that replay
the run."""
import numpy as np

from ._run import run

_UINT = {"f32": np.uint32, "f16": np.uint16, "bf16": np.uint16, "f64": np.uint64}
_BITS = {"f32": 32, "f16": 16, "bf16": 16, "f64": 64}
_MANT = {"f32": 23, "f16": 10, "bf16": 7, "f64": 52}


def _bits(a, dt):
    return np.ascontiguousarray(a).reshape(-1).view(_UINT[dt]).astype(np.uint64)


def _isnan(b, dt):
    nb, mb = _BITS[dt], _MANT[dt]
    mag = b & np.uint64((1 << (nb - 1)) - 1)
    inf = np.uint64(((1 << (nb - 1 - mb)) - 1) << mb)
    return mag > inf


def _ordered(b, dt):
    """Encodings as ordered integers (+0 -> 0, -0 -> -1), as the engine's
    distance (docs/metrics.md)."""
    nb = _BITS[dt]
    sign = (b >> np.uint64(nb - 1)) & np.uint64(1)
    mag = (b & np.uint64((1 << (nb - 1)) - 1)).astype(object)
    return [(-int(m) - 1) if s else int(m) for s, m in zip(sign, mag)]


def _value(bits, dt):
    """The value of one encoding, as text with enough digits."""
    a = np.array([bits], dtype=_UINT[dt])
    if dt == "bf16":
        v = (a.astype(np.uint32) << np.uint32(16)).view(np.float32)[0]
        return f"{float(v):.4g}"
    v = a.view({"f32": np.float32, "f16": np.float16, "f64": np.float64}[dt])[0]
    return f"{float(v):.{ {'f32': 9, 'f16': 5, 'f64': 17}[dt] }g}"


def _enc(bits, dt):
    return f"0x{int(bits):0{_BITS[dt] // 4}x} ({_value(bits, dt)})"


def _mode_kw(mode, kw):
    if "modes" in kw:
        raise TypeError("give the one mode to check as mode=..., not modes=")
    kw = dict(kw, modes=[mode], keep=True)
    kw.pop("allow_hazards", None)
    return kw


def _mode_rows(res, op, mode, allow_hazards=False):
    """The rows of mode, one per dtype; a mode that does not apply to the
    kernel (an n/a row) fails the assertion, and so does a racecheck
    hazard (docs/block-kernels.md) unless allow_hazards."""
    for row in (r for r in res.rows if r.mode == mode):
        if row.status == "n/a":
            raise AssertionError(f"{op} {row.dtype}, mode {mode}: does not apply "
                                 f"to this kernel")
        if row.racecheck and not allow_hazards:
            raise AssertionError(f"{op} {row.dtype}, mode {mode}: racecheck found "
                                 f"{row.racecheck} hazard(s) (allow_hazards=True to "
                                 f"compare anyway); the first: {row.hazard}")
        yield row


def _element(res, dt, i, mode, lines, pad="  "):
    """The lines that describe element i of dtype dt."""
    ins = res.inputs.get(dt, {})
    flat = {k: _bits(v, dt) for k, v in ins.items()}
    names = [k for k in res.input_names if k in flat] or list(flat)
    lines.append(pad + f"at element {i}: " + ", ".join(
        f"{k} = {_enc(flat[k][i], dt)}" for k in names))
    out = {name: _bits(res.outputs[(dt, name)], dt) for name in (mode, "torch", "ref")
           if (dt, name) in res.outputs}
    width = max(len(k) for k in list(out) + ["correctly rounded"])
    for name, label in ((mode, mode), ("torch", "torch"), ("ref", "correctly rounded")):
        if name in out:
            lines.append(pad + f"  {label + ':':<{width + 1}} {_enc(out[name][i], dt)}")
    at = {k: int(flat[k][i]) for k in names}
    lines.append(pad + "why: " + res.explain_command(dt, at))
    return out


def _replay(res, lines):
    lines.append(f"  replay: seed={res.seed}: {res.replay_command()}")


def _why(op, mode, kw, lines):
    """The same run with why=True (docs/why.md): the instructions and
    source lines that explain mode's differences, and the fix with the
    figures it gives when ulpbench compiled and ran it."""
    try:
        res = run(op=op, **dict(kw, modes=[mode], keep=False, why=True))
    except Exception as e:  # the assertion's message matters more
        lines.append(f"  why: not known ({e})")
        return
    for row in (r for r in res.rows if r.mode == mode and r.why_torch):
        lines.append(f"  cause ({row.dtype}): {row.why_torch}")
        if row.why_fix:
            lines.append(f"  fix: {row.why_fix}")
            lines.append(f"    verified: the fixed kernel gives torch_mismatch "
                         f"{row.fixed_torch_mismatch} (cr_mismatch {row.fixed_cr_mismatch})")


def assert_matches_torch(op, mode, why=True, **run_keywords):
    """Asserts that mode's results equal the torch plan's bit for bit (any
    NaN equals any NaN), in every dtype of the run, and that racecheck
    found no hazard (allow_hazards=True: whatever it found); returns the
    Result.  Takes every keyword of ulpbench.run (kernel, entry, args,
    dtype, inputs, n, seed, fpcore, html, launch, schedules).  On failure,
    with why (the default), the message also names the instructions and
    source lines responsible and the fix, from a second run with why=True
    (docs/why.md)."""
    __tracebackhide__ = True  # pytest shows the message, not this code
    res = run(op=op, **_mode_kw(mode, run_keywords))
    lines = []
    for row in _mode_rows(res, op, mode, run_keywords.get("allow_hazards", False)):
        if row.torch_mismatch is None:
            raise AssertionError(f"{op} has no torch plan to compare with")
        if not row.torch_mismatch:
            continue
        dt = row.dtype
        y, t = _bits(res.outputs[(dt, mode)], dt), _bits(res.outputs[(dt, "torch")], dt)
        yn, tn = _isnan(y, dt), _isnan(t, dt)
        differ = np.nonzero(~(yn & tn) & ((y != t) | (yn != tn)))[0]
        # the worst: the largest distance (NaN against a number first), the
        # first among equals
        oy, ot = _ordered(y[differ], dt), _ordered(t[differ], dt)
        dist = [float("inf") if (yn[i] or tn[i]) else abs(a - b)
                for i, a, b in zip(differ, oy, ot)]
        w = int(np.argmax(np.array(dist, dtype=float)))
        i, d = int(differ[w]), dist[w]
        lines.append(f"{op} {dt}, mode {mode}: {row.torch_mismatch} of {row.n} elements "
                     f"differ from the torch plan, by up to {row.torch_max_dist} units")
        lines.append("  the largest difference, "
                     + ("NaN against a number" if d == float("inf") else f"{int(d)} units,"))
        _element(res, dt, i, mode, lines)
    if lines and why:
        _why(op, mode, run_keywords, lines)
    if lines:
        _replay(res, lines)
        raise AssertionError("\n".join(lines))
    return res


def assert_max_ulp(op, mode, bound, **run_keywords):
    """Asserts that mode's max_ulp is at most bound and that it has no
    NaN/inf disagreement with the correctly rounded result (which max_ulp
    leaves out), in every dtype of the run, and that racecheck found no
    hazard (allow_hazards=True: whatever it found); returns the Result.
    Takes every keyword of ulpbench.run."""
    __tracebackhide__ = True
    res = run(op=op, **_mode_kw(mode, run_keywords))
    lines = []
    for row in _mode_rows(res, op, mode, run_keywords.get("allow_hazards", False)):
        # status nan-results: no finite result to measure, max_ulp None
        none = row.max_ulp is None
        if not none and row.max_ulp <= bound and not row.nan_mismatch:
            continue
        dt = row.dtype
        what = []
        if none:
            what.append("no number to measure (every result is NaN or inf where "
                        "the exact value is finite)")
        elif row.max_ulp > bound:
            what.append(f"max_ulp {row.max_ulp:.6g} > {bound}")
        if row.nan_mismatch:
            what.append(f"{row.nan_mismatch} NaN/inf disagreements")
        lines.append(f"{op} {dt}, mode {mode}: " + " and ".join(what) + f"; "
                     f"{row.cr_mismatch} of {row.n} elements differ from the correctly "
                     "rounded result")
        i = _worst_index(res, row, dt)
        if i is not None:
            lines.append(f"  the worst, {row.max_ulp:.6g} ulp,")
            _element(res, dt, i, mode, lines)
        if row.nan_mismatch and (none or row.max_ulp <= bound):
            y, c = _bits(res.outputs[(dt, mode)], dt), _bits(res.outputs[(dt, "ref")], dt)
            yn, cn = _isnan(y, dt), _isnan(c, dt)
            bad = np.nonzero(yn != cn)[0]
            if len(bad):
                lines.append("  a NaN/inf disagreement,")
                _element(res, dt, int(bad[0]), mode, lines)
    if lines:
        _replay(res, lines)
        raise AssertionError("\n".join(lines))
    return res


def _worst_index(res, row, dt):
    """The first element whose inputs are the row's worst_input."""
    if not row.worst_input:
        return None
    want = dict(p.split("=") for p in row.worst_input.split(";"))
    flat = {k: _bits(v, dt) for k, v in res.inputs.get(dt, {}).items()}
    if not flat or set(want) != set(flat):
        return None
    hit = np.ones(len(next(iter(flat.values()))), dtype=bool)
    for k, v in want.items():
        hit &= flat[k] == np.uint64(int(v, 16))
    idx = np.nonzero(hit)[0]
    return int(idx[0]) if len(idx) else None
