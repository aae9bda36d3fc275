"""fpcore_tensor.py — an independent evaluator of the exact math that
`ulpbench --list-ops` prints for shaped ops (FPCore 2.0's tensor forms:
tensor, for, ref, let, let*, and array for several outputs), written from
the FPCore standard's description of those forms, not from ulpbench's
code.  It evaluates the math with mpmath at 400 bits on inputs it draws
itself, rounds each output element to the dtype by hand (nearest, ties
to even, subnormals) and writes a kernel that stores exactly those
encodings.  tests/shaped_fpcore.test runs that kernel through ulpbench
against its own correctly rounded reference: every element must agree
(cr_mismatch 0), so the C reference (reference/ref_shaped.c) and the
printed math say the same thing.

  fpcore_tensor.py OP ROWS COLS DTYPE SEED DIR [flip] [wide] [inner=K] [batch=B]

reads the op's description from `ulpbench --list-ops --op OP` on stdin,
writes DIR/IN.npy for each input and DIR/table.cu; with flip, the first
element of the first output is moved one ulp (a control: ulpbench must
then count one mismatch); with wide, class indices are taken as
`const long long *` (PyTorch's int64 targets) instead of `const int *`;
inner and batch are the matrix ops' depth and batch (docs/tensor-cores.md:
extents (rows, inner), (inner, cols), (cols, inner), (batch, inner, cols);
an operand of 3 dimensions whose extent is (rows, inner) is (batch,
rows / batch, inner)).  Prints the --input arguments, and --args when an
output has an input's name (the kernel's parameter for it is o_NAME).

The ops over rows written in FPCore (docs/rowops.md) are read the same
way, with what their cores say besides: :params (each value rounded to
float32, as the op's dtypes hold them but f64), and plain arguments (an
elementwise op of several outputs: every argument a (rows, cols) tensor,
the body evaluated element by element).
"""
import random
import re
import struct
import sys
from fractions import Fraction

import mpmath
from mpmath import mp

mp.prec = 400

FORMATS = {'f32': (24, -126, 127, 'f', '<f4'), 'f16': (11, -14, 15, 'e', '<f2'),
           'i4': (0, 0, 0, 'i', '<i4')}


# ------------------------------------------------------------------ s-expressions
def tokens(text):
    return re.findall(r'[()\[\]]|[^\s()\[\]]+', text)


def parse(toks):
    t = toks.pop(0)
    if t in '([':
        out = []
        while toks[0] not in ')]':
            out.append(parse(toks))
        toks.pop(0)
        return out
    return t


# ------------------------------------------------------------------ evaluation
class Unbound(Exception):
    pass


def number(tok):
    if re.fullmatch(r'[+-]?\d+/\d+', tok):
        return mpmath.mpf(Fraction(tok).numerator) / Fraction(tok).denominator
    if re.fullmatch(r'[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?', tok):
        f = Fraction(tok)  # the decimal's exact value
        return mpmath.mpf(f.numerator) / f.denominator
    return None


CONST = {'INFINITY': mpmath.inf, '-inf': -mpmath.inf, '+inf': mpmath.inf,
         'PI': mpmath.pi, 'E': mpmath.e, 'TRUE': True, 'FALSE': False}


def nary(f, args):
    acc = args[0]
    for a in args[1:]:
        acc = f(acc, a)
    return acc


OPS = {
    '+': lambda a: nary(lambda x, y: x + y, a),
    '*': lambda a: nary(lambda x, y: x * y, a),
    '-': lambda a: -a[0] if len(a) == 1 else nary(lambda x, y: x - y, a),
    '/': lambda a: nary(lambda x, y: x / y, a),
    'exp': lambda a: mpmath.exp(a[0]), 'log': lambda a: mpmath.log(a[0]),
    'sqrt': lambda a: mpmath.sqrt(a[0]), 'fabs': lambda a: abs(a[0]),
    'pow': lambda a: a[0] ** a[1], 'tanh': lambda a: mpmath.tanh(a[0]),
    'fmax': lambda a: max(a[0], a[1]), 'fmin': lambda a: min(a[0], a[1]),
    '<': lambda a: a[0] < a[1], '>': lambda a: a[0] > a[1],
    '<=': lambda a: a[0] <= a[1], '>=': lambda a: a[0] >= a[1],
    '==': lambda a: a[0] == a[1], 'and': lambda a: all(a), 'or': lambda a: any(a),
    'not': lambda a: not a[0],
}


def ev(e, env):
    if isinstance(e, str):
        if e in env:
            return env[e]
        if e in CONST:
            return CONST[e]
        v = number(e)
        if v is None:
            raise Unbound(e)
        return v
    head = e[0]
    if head in ('let', 'let*'):
        inner = dict(env)
        for name, val in e[1]:
            inner[name] = ev(val, inner if head == 'let*' else env)
        return ev(e[2], inner)
    if head == 'if':
        return ev(e[2] if ev(e[1], env) else e[3], env)
    if head == 'tensor':  # (tensor ([i n] ...) body): nested lists
        return tensor(e[1], e[2], env)
    if head == 'for':  # (for ([i n] ...) ([acc init update] ...) body)
        return loop(e[1], e[2], e[3], env)
    if head == 'ref':
        t = ev(e[1], env)
        for ix in e[2:]:
            t = t[int(ev(ix, env))]
        return t
    if head == 'array':  # several outputs: a tuple of them
        return tuple(ev(a, env) for a in e[1:])
    return OPS[head]([ev(a, env) for a in e[1:]])


def tensor(dims, body, env):
    name, n = dims[0]
    out = []
    for k in range(int(ev(n, env))):
        inner = dict(env)
        inner[name] = mpmath.mpf(k)
        out.append(tensor(dims[1:], body, inner) if len(dims) > 1 else ev(body, inner))
    return out


def loop(dims, accs, body, env):
    # the accumulators start at their inits and all update together, once
    # per index tuple, the indices of the dims nested in order
    state = dict(env)
    for name, init, _ in accs:
        state[name] = ev(init, env)

    def walk(d, st):
        if d == len(dims):
            new = {name: ev(upd, st) for name, _, upd in accs}
            st.update(new)
            return
        name, n = dims[d]
        for k in range(int(ev(n, st))):
            st[name] = mpmath.mpf(k)
            walk(d + 1, st)
    walk(0, state)
    return ev(body, state)


# ------------------------------------------------------------------ rounding
def exact(v):
    m, e = mpmath.mpf(v).man_exp
    return Fraction(int(m)) * Fraction(2) ** int(e)


def round_to(v, dt):
    """v rounded to the dtype, nearest, ties to even: its encoding.  Also
    checks that 400 bits were enough: v is on a midpoint (then exact: sums
    and products of the inputs are) or not within 2^-300 of one."""
    p, emin, emax, code, _ = FORMATS[dt]
    if mpmath.isnan(v):
        return struct.unpack('<H' if code == 'e' else '<I', struct.pack('<' + code, float('nan')))[0]
    sign = v < 0
    a = exact(abs(v)) if not mpmath.isinf(v) else None
    if a is None or a == 0:
        val = float('inf') if a is None else 0.0
    else:
        e = a.numerator.bit_length() - a.denominator.bit_length()
        while Fraction(2) ** e > a:
            e -= 1
        while Fraction(2) ** (e + 1) <= a:
            e += 1
        q = Fraction(2) ** (max(e, emin) - p + 1)  # the spacing at a
        n, r = divmod(a, q)
        half = Fraction(1, 2)
        frac = r / q
        # exactly a midpoint: an exact value (a sum, a product); near one
        # but not on it: 400 bits might not have been enough
        assert frac == half or abs(frac - half) > Fraction(1, 2 ** 300), 'too close to a midpoint'
        n = int(n) + (1 if frac > half or (frac == half and n % 2) else 0)
        val = float(n * q) if n * q < Fraction(2) ** (emax + 1) else float('inf')
    val = -val if sign else val
    return struct.unpack('<H' if code == 'e' else '<I', struct.pack('<' + code, val))[0]


# ------------------------------------------------------------------ files
def write_npy(path, vals, shape, dt):
    _, _, _, code, descr = FORMATS[dt]
    dims = '(%s)' % ', '.join(str(d) for d in shape) if len(shape) > 1 else '(%d,)' % shape[0]
    hdr = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, dims)
    hdr += ' ' * (64 - (10 + len(hdr) + 1) % 64) + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(hdr)) + hdr.encode())
        f.write(struct.pack('<%d%s' % (len(vals), code), *vals))


def describe(text):
    """Inputs (name, extent, kind, lo, hi), outputs (name, extent), the
    math.  kind: the run's dtype (a domain given), f32 (a float32 input
    whatever the dtype, drawn here in [lo, hi] = [0.5, 2]: any value is an
    input the math takes) or integer (class indices, drawn in [0, cols))."""
    ins, outs, math = [], [], []
    lines = text.splitlines()
    for k, line in enumerate(lines):
        m = re.match(r'\s+input (\w+) \(([\w, ]+)\)(?: in \[([-\d.e]+), ([-\d.e]+)\])?', line)
        if m:
            dims = [d.strip() for d in m.group(2).split(',')]
            kind = dims.pop() if dims[-1] in ('f32', 'integer') else 'dtype'
            lo, hi = (float(m.group(3)), float(m.group(4))) if m.group(3) else (0.5, 2.0)
            ins.append((m.group(1), ', '.join(dims), kind, lo, hi))
        m = re.match(r'\s+output (\w+) \(([\w, ]+)\)', line)
        if m:
            outs.append((m.group(1), m.group(2)))
        if line.strip() == 'math:':
            math = lines[k + 1:]
            break
    return ins, outs, '\n'.join(math)


def extent(ext, rows, cols, inner=1, batch=1, ndims=2):
    if ext == 'rows, inner' and ndims == 3:
        return (batch, rows // batch, inner)
    return {'rows, cols': (rows, cols), 'rows': (rows,), 'cols': (cols,),
            'rows, inner': (rows, inner), 'inner, cols': (inner, cols),
            'cols, inner': (cols, inner), 'batch, inner, cols': (batch, inner, cols)}[ext]


def nest(it, shape):
    return [nest(it, shape[1:]) for _ in range(shape[0])] if len(shape) > 1 else \
        [next(it) for _ in range(shape[0])]


def flat(t):
    return [v for x in t for v in flat(x)] if isinstance(t, list) else [t]


def core_params(core, env):
    """:params ([NAME VALUE] ...): each value as a float32 holds it."""
    props = core[3:-1]
    for k in range(len(props) - 1):
        if props[k] == ':params' and isinstance(props[k + 1], list):
            for name, val in props[k + 1]:
                env[name] = mpmath.mpf(struct.unpack('<f', struct.pack('<f', float(Fraction(val))))[0])


def elementwise(body, names, env, rows, cols):
    """A body over plain arguments, element by element: one (rows, cols)
    tensor per output."""
    res = None
    for i in range(rows):
        for j in range(cols):
            inner = dict(env)
            for n in names:
                inner[n] = env[n][i][j]
            v = ev(body, inner)
            v = v if isinstance(v, tuple) else (v,)
            res = res or tuple([[None] * cols for _ in range(rows)] for _ in v)
            for o, x in enumerate(v):
                res[o][i][j] = x
    return res


def main():
    op, rows, cols, dt, seed, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
        sys.argv[4], int(sys.argv[5]), sys.argv[6]
    flip, wide = 'flip' in sys.argv[7:], 'wide' in sys.argv[7:]
    sizes = dict(a.split('=') for a in sys.argv[7:] if '=' in a)
    inner, batch = int(sizes.get('inner', 1)), int(sizes.get('batch', 1))
    ins, outs, math = describe(sys.stdin.read())
    core = parse(tokens(math))
    assert core[0] == 'FPCore', 'the math is not an FPCore'
    args, body = core[2], core[-1]  # properties (if any) between them
    rng = random.Random(seed)
    env = {}
    core_params(core, env)
    plain = [a for a in args if isinstance(a, str)]
    code = FORMATS[dt][3]
    for a in args:  # (name dim ...): the dims bound to the sizes
        name, dims = (a, []) if isinstance(a, str) else (a[0], a[1:])
        _, ext, kind, lo, hi = next(i for i in ins if i[0] == name)
        shape = extent(ext, rows, cols, inner, batch, len(dims))
        for d, n in zip(dims, shape):
            env[d] = mpmath.mpf(n)
        count = 1
        for n in shape:
            count *= n
        fshape = (count // shape[-1], shape[-1]) if len(shape) > 2 else shape
        if kind == 'integer':
            vals = [rng.randrange(cols) for _ in range(count)]
            write_npy('%s/%s.npy' % (out, name), vals, fshape, 'i4')
        else:
            c = code if kind == 'dtype' else 'f'
            vals = [struct.unpack('<' + c, struct.pack('<' + c, rng.uniform(lo, hi)))[0]
                    for _ in range(count)]
            write_npy('%s/%s.npy' % (out, name), vals, fshape, dt if kind == 'dtype' else 'f32')
        env[name] = nest(iter(mpmath.mpf(v) for v in vals), shape)
        print('--input %s=%s/%s.npy' % (name, out, name), end=' ')
    names = {i[0] for i in ins}
    renamed = ['o_%s=%s' % (o[0], o[0]) for o in outs if o[0] in names]
    print('--args %s' % ','.join(renamed) if renamed else '')
    res = elementwise(body, plain, env, rows, cols) if plain else ev(body, env)
    res = res if isinstance(res, tuple) else (res,)
    assert len(res) == len(outs), 'the math gives %d outputs, the op %d' % (len(res), len(outs))
    ctype, utype, cast = ('float', 'unsigned int', '__uint_as_float') if dt == 'f32' else \
        ('__half', 'unsigned short', '__ushort_as_half')
    src = ['#include <cuda_fp16.h>' if dt == 'f16' else '',
           '// the correctly rounded outputs of %s, from the printed math' % op]
    ptype = {'dtype': ctype, 'f32': 'float', 'integer': 'long long' if wide else 'int'}
    oname = {o[0]: 'o_' + o[0] if o[0] in names else o[0] for o in outs}
    params = ['const %s *%s' % (ptype[i[2]], i[0]) for i in ins] + \
             ['%s *%s' % (ctype, oname[o[0]]) for o in outs] + ['int rows', 'int cols']
    stores = []
    for (name, ext), t in zip(outs, res):
        arr = oname[name]
        enc = [round_to(v, dt) for v in flat(t)]
        if flip and name == outs[0][0]:
            enc[0] += 1  # one ulp up (a finite, positive-magnitude step)
        src.append('__device__ const %s T_%s[] = {%s};' % (utype, name, ', '.join(map(str, enc))))
        if ext == 'rows, cols':
            stores.append('for (int j = 0; j < cols; j++) %s[r * cols + j] = %s(T_%s[r * cols + j]);'
                          % (arr, cast, name))
        elif ext == 'rows':
            stores.append('%s[r] = %s(T_%s[r]);' % (arr, cast, name))
        else:
            stores.append('if (r == 0) for (int j = 0; j < cols; j++) %s[j] = %s(T_%s[j]);'
                          % (arr, cast, name))
    src.append('__global__ void table(%s)\n{\n    int r = blockIdx.x * blockDim.x + threadIdx.x;\n'
               '    if (r >= rows)\n        return;\n    %s\n}' % (', '.join(params), '\n    '.join(stores)))
    open('%s/table.cu' % out, 'w').write('\n'.join(src) + '\n')


if __name__ == '__main__':
    main()
