"""ulpbench.run: one run of the engine, its rows and (keep=True) its
per-element results."""
import hashlib
import json
import os
import shlex
import shutil
import tempfile

import numpy as np

from . import _arrays
from ._engine import engine, explain_name, run_engine


class Row:
    """One row of the report: an attribute per CSV column (docs/csv.md),
    typed (int, float, str; None where the CSV is empty), and `histogram`,
    the ULP histogram (docs/json.md)."""

    def __init__(self, values):
        self.__dict__.update(values)
        self._fields = list(values)

    def as_dict(self):
        return {k: getattr(self, k) for k in self._fields}

    def __repr__(self):
        return (f"Row(op={self.op!r}, dtype={self.dtype!r}, mode={self.mode!r}, "
                f"max_ulp={self.max_ulp!r}, torch_mismatch={self.torch_mismatch!r})")


class Outputs(dict):
    """Per-element results, NumPy arrays in the inputs' shape: by
    (dtype, name), and by name alone when the run had one dtype; names are
    the modes, "torch" and "ref" (the correctly rounded results)."""

    def __init__(self, by_pair, dtypes):
        super().__init__(by_pair)
        self._one = dtypes[0] if len(dtypes) == 1 else None

    def __missing__(self, key):
        if isinstance(key, str) and self._one is not None and (self._one, key) in self:
            return self[(self._one, key)]
        raise KeyError(key)

    def __contains__(self, key):
        return super().__contains__(key) or (
            isinstance(key, str) and self._one is not None
            and super().__contains__((self._one, key)))


class Result:
    """What a run gave: .rows (Row), .seed, .n, .config (the run's
    configuration, docs/json.md), .command (the engine's argv); with
    keep=True .outputs (Outputs) and .inputs ({dtype: {name: array}}, the
    elements the run used: yours, or the samples it drew); .html, the page
    when one was asked for; .explain_opts, the options `ulpbench explain`
    needs to trace the same kernel."""

    def __init__(self, report, command, explain_opts, engine_name):
        run = report["runs"][0]
        self.config = run["config"]
        self.rows = [Row(r) for r in run["rows"]]
        self.seed = self.config.get("seed")
        # the op's inputs in order, from the configuration's domain
        # ("x=-inf:inf;g=-inf:inf")
        self.input_names = [d.split("=", 1)[0] for d in
                            self.config.get("domain", "").split(";") if d]
        self.n = self.config.get("n")
        self.command = command
        self.explain_opts = explain_opts
        self.engine_name = engine_name
        self.outputs = None
        self.inputs = None
        self.html = None

    def row(self, mode, dtype=None):
        """The row of mode ("torch" for the plan) in dtype (the only one
        when None)."""
        rows = [r for r in self.rows if r.mode == mode and (dtype is None or r.dtype == dtype)]
        if not rows:
            raise KeyError(f"no row for mode {mode!r}"
                           + (f" in {dtype}" if dtype else "")
                           + f" (rows: {', '.join(r.dtype + ' ' + r.mode for r in self.rows)})")
        if len(rows) > 1:
            raise KeyError(f"mode {mode!r} has a row in each of "
                           f"{', '.join(r.dtype for r in rows)}: name the dtype")
        return rows[0]

    def explain_command(self, dtype, at):
        """The `ulpbench explain` command for one input of this run (at:
        {input name: encoding})."""
        parts = [self.engine_name, "explain"] + self.explain_opts + [
            "--op", self.config["op"], "--dtype", dtype, "--at",
            ",".join(f"{k}=0x{v:0{_hexdigits(dtype)}x}" for k, v in at.items())]
        return " ".join(shlex.quote(p) for p in parts)

    def replay_command(self):
        """The engine's command line of this run, to replay it (its
        temporary input and report files left out)."""
        keep, skip = [], False
        for a in self.command[1:]:
            if skip:
                skip = False
                continue
            if a in ("--json", "--dump", "--input", "--html"):
                skip = True
                if a == "--input":
                    keep += ["--input", "..."]
                continue
            keep.append(a)
        if "--seed" not in keep and self.seed is not None:
            keep += ["--seed", str(self.seed)]
        return " ".join(shlex.quote(p) for p in [self.engine_name] + keep)


def _hexdigits(dtype):
    return {"f32": 8, "f16": 4, "bf16": 4, "f64": 16}[dtype]


def _listify(x):
    if x is None:
        return None
    if isinstance(x, str):
        return [s for s in x.split(",") if s]
    return [str(v) for v in x]


def _text_or_path(value, suffix):
    """A path as given, or text (it has a newline) written to a file named
    by its SHA-256 under $XDG_CACHE_HOME/ulpbench/python (~/.cache/...),
    where it stays, so that a printed explain command still runs after
    the test that wrote it."""
    value = os.fspath(value)
    if "\n" not in value:
        return value
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    d = os.path.join(base, "ulpbench", "python")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, hashlib.sha256(value.encode()).hexdigest()[:24] + suffix)
    if not os.path.exists(path):
        fd, part = tempfile.mkstemp(dir=d, suffix=".part")
        with os.fdopen(fd, "w") as f:
            f.write(value)
        os.replace(part, path)
    return path


def _options(op, kernel, entry, args, modes, dtypes, n, seed, fpcore, domain,
             launcher=None, shape=None, params=None, launch=None, schedules=None):
    """The engine's options for these keywords, and those an explain
    command needs."""
    opts = ["--op", op, "-q"]
    explain = []
    if launch is not None:
        more = _option_args("launch", launch)
        opts += more
        explain += more
    if schedules is not None:
        opts += ["--schedules", _whole("schedules", schedules)]
    for f in fpcore or []:
        path = _text_or_path(f, ".fpcore")
        opts += ["--fpcore", path]
        explain += ["--fpcore", path]
    if kernel is not None:
        path = _text_or_path(kernel, ".cu")
        opts += ["--kernel", path]
        explain += ["--kernel", path]
    if entry is not None:
        opts += ["--entry", entry]
        explain += ["--entry", entry]
    if launcher is not None:
        opts += ["--launcher", launcher]
    if shape is not None:
        opts += _option_args("shape", shape)
    for name, v in (params or {}).items():
        opts += ["--param", f"{name}={_num(v)}"]
    if args is not None:
        a = args if isinstance(args, str) else ",".join(f"{k}={v}" for k, v in args.items())
        opts += ["--args", a]
        explain += ["--args", a]
    if modes:
        opts += ["--mode", ",".join(modes)]
    if dtypes:
        opts += ["--dtype", ",".join(dtypes)]
    if n is not None:
        opts += ["-n", _whole("n", n)]
    if seed is not None:
        opts += ["--seed", _whole("seed", seed)]
    for name, lohi in (domain or {}).items():
        parts = lohi.split(":") if isinstance(lohi, str) else lohi
        try:
            lo, hi = parts
        except (TypeError, ValueError):
            raise ValueError(f"domain[{name!r}]: {lohi!r} is neither 'LO:HI' nor a "
                             "(lo, hi) pair") from None
        opts += ["--domain", f"{name}={_num(lo)}:{_num(hi)}"]
    return opts, explain


def _whole(what, v):
    """A count or seed as the engine reads it: a whole number, never one
    truncated unsaid (n=1.5 is refused; 1e6 is 1000000)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)) and not hasattr(v, "__index__"):
        raise TypeError(f"{what}: a whole number, not {type(v).__name__}")
    if isinstance(v, float) and not v.is_integer():
        raise ValueError(f"{what}={v!r}: a whole number")
    return str(int(v))


# The engine's other options, one keyword each: keyword -> (option, kind,
# whether `ulpbench explain` needs it to trace the same kernel).  Kinds:
#   value   --opt V (str(V))        flag    --opt when true
#   each    --opt V per item of a list (or one V)
#   pairs   --opt K=V per item of a dict (or a list of "K=V", or one)
#   joined  --opt K=V,K=V of a dict (or as given)
#   dims    --opt R,C of a pair (or as given)
#   range   --opt LO:HI of a pair (or as given)
#   seed    --opt seed=S of a number (or as given)
# tests/python.test checks that every option of `ulpbench --help` a run
# takes has its keyword here or among run()'s own.
_OPTIONS = {
    "include": ("-I", "each", True),
    "define": ("-D", "pairs", True),
    "launch": ("--launch", "joined", True),
    "param": ("--param", "pairs", True),
    "shape": ("--shape", "dims", False),
    "orders": ("--orders", "flag", False),
    "sample": ("--sample", "value", False),
    "exhaustive": ("--exhaustive", "flag", False),
    "range": ("--range", "range", False),
    "reference": ("--reference", "value", False),
    "exec": ("--exec", "value", False),
    "threads": ("--threads", "value", False),
    "csv": ("--csv", "value", False),
    "append": ("--append", "flag", False),
    "backend": ("--backend", "value", False),
    "arch": ("--arch", "value", True),
    "catalog": ("--catalog", "value", True),
    "times": ("--times", "flag", False),
    "verbose": ("--verbose", "flag", False),
    "atomic_order": ("--atomic-order", "seed", True),
    "triton": ("--triton", "value", True),
    "constexpr": ("--constexpr", "joined", True),
    "grid": ("--grid", "value", True),
    "num_warps": ("--num-warps", "value", True),
    "num_stages": ("--num-stages", "value", True),
    "python": ("--python", "value", True),
    "ref_budget": ("--ref-budget", "value", False),
    "toolkit": ("--toolkit", "value", False),
    "torch_toolkit": ("--torch-toolkit", "value", False),
    "fix_dir": ("--fix-dir", "value", False),
}


def _option_args(name, value):
    """The engine's arguments for keyword name given value."""
    opt, kind, _ = _OPTIONS[name]
    if kind == "flag":
        return [opt] if value else []
    if kind in ("each", "pairs"):
        if isinstance(value, dict):
            items = [k if v is None else f"{k}={_num(v)}" for k, v in value.items()]
        elif isinstance(value, (str, os.PathLike)):
            items = [os.fspath(value)]
        else:
            items = [os.fspath(v) if isinstance(v, os.PathLike) else str(v) for v in value]
        return [a for it in items for a in (opt, it)]
    if kind == "joined" and isinstance(value, dict):
        value = ",".join(f"{k.replace('_', '-') if name == 'launch' else k}={_num(v)}"
                         for k, v in value.items())
    elif kind == "dims" and not isinstance(value, str):
        value = ",".join(str(int(v)) for v in value)
    elif kind == "range" and not isinstance(value, str):
        value = f"{_num(value[0])}:{_num(value[1])}"
    elif kind == "seed" and not isinstance(value, str):
        value = f"seed={int(value)}"
    return [opt, os.fspath(value) if isinstance(value, os.PathLike) else str(value)]


def _num(v):
    """A bound as the engine reads it: as given when text, else the
    shortest repr of the number (exact for a float)."""
    return v if isinstance(v, str) else repr(float(v)) if isinstance(v, float) else str(v)


def _read_outputs(directory, res, dtypes, op):
    """The --dump files: OP.DTYPE.NAME.npy and OP.DTYPE.input.X.npy."""
    by_pair, inputs = {}, {}
    prefix = op + "."
    for name in sorted(os.listdir(directory)):
        if not (name.startswith(prefix) and name.endswith(".npy")):
            continue
        dt, _, what = name[len(prefix):-4].partition(".")
        a = np.load(os.path.join(directory, name))
        if what.startswith("input."):
            inputs.setdefault(dt, {})[what[len("input."):]] = a
        else:
            by_pair[(dt, what)] = a
    res.outputs = Outputs(by_pair, dtypes)
    res.inputs = inputs


def run(op, kernel=None, entry=None, args=None, modes=None, dtype=None, inputs=None,
        n=None, seed=None, fpcore=None, keep=False, html=None, domain=None,
        launcher=None, shape=None, params=None, why=False, launch=None,
        schedules=None, **options):
    """Runs op (under each of modes, default all) and returns a Result.

    kernel: your .cu file (or its source text); entry, args: as the
    engine's --entry and --args (args also as a dict {param: name}); dtype:
    "f32", "bf16", ... or a list (default f32, or the inputs' dtype);
    inputs: {name: NumPy array, PyTorch tensor or .npy path}, instead of
    n samples drawn with seed; fpcore: an FPCore file (or its text, or a
    list) with ops of your own; keep: also read every element's results
    (.outputs) and inputs (.inputs); html: write the HTML report there;
    domain: {input: (lo, hi)} to sample instead of the op's domain;
    launcher: the host function of kernel that launches its kernels (the
    engine's --launcher); shape: (rows, cols) of an op over rows; params:
    {name: value} of the op's :params.  args' roles (in place, scratch,
    ...) are the engine's: {"g": "out:inplace=g", "tmp": "scratch:size=rows"}.
    Integer arrays in inputs (int32, int64, uint8) are an op's integer
    inputs (ids, class indices, masks).
    why: for each mode that differs, which instructions and source lines
    explain it and the fix, verified (the rows' why_* and fixed_*
    attributes, docs/why.md).
    launch: the engine's --launch ("block=128,per-block=1", or a dict
    {"block": "32x4", "per_thread": 2}); schedules: its --schedules K (the
    kernel under K schedules: each row's schedule_diff and schedule_dist).
    Every other option of the engine is a keyword of its name (dashes as
    underscores): include=["dir"] (-I), define={"N": 4} (-D),
    param={"alpha": 0.5}, triton="f.py:k", constexpr={"BLOCK": 1024},
    num_warps, num_stages, grid, python, atomic_order=7, backend, arch,
    catalog, sample, exhaustive, range, reference, exec, threads, orders,
    csv, append, times, verbose, ref_budget, toolkit, torch_toolkit,
    fix_dir.  Errors of the engine raise UlpbenchError
    with its message and exit status."""
    unknown = sorted(set(options) - set(_OPTIONS))
    if unknown:
        raise TypeError("run() got unexpected keyword%s %s (the engine's options: %s)"
                        % ("s" if len(unknown) > 1 else "", ", ".join(unknown),
                           ", ".join(sorted(_OPTIONS))))
    modes = _listify(modes)
    dtypes = _listify(dtype)
    if isinstance(fpcore, (str, os.PathLike)):
        fpcore = [fpcore]
    tmp = tempfile.mkdtemp(prefix="ulpbench.")
    try:
        in_args, in_dt = [], None
        if inputs:
            if not hasattr(inputs, "items"):
                raise TypeError("inputs: a dict {input name: array, tensor or path}")
            in_args, in_dt = _arrays.write_inputs(
                inputs, dtypes[0] if dtypes and len(dtypes) == 1 else None, tmp)
            if dtypes and len(dtypes) > 1 and in_dt:
                raise ValueError("inputs have one dtype; a run over several dtypes "
                                 "cannot take them")
        if dtypes is None and in_dt:
            dtypes = [in_dt]
        opts, explain = _options(op, kernel, entry, args, modes, dtypes, n, seed, fpcore,
                                 domain, launcher, shape, params, launch, schedules)
        for name, value in options.items():
            if value is None:
                continue
            more = _option_args(name, value)
            opts += more
            if _OPTIONS[name][2]:
                explain += more
        for a in in_args:
            opts += ["--input", a]
        report = os.path.join(tmp, "report.json")
        opts += ["--json", report]
        if keep:
            opts += ["--dump", os.path.join(tmp, "out")]
        if html is not None:
            opts += ["--html", os.fspath(html)]
        if why:
            opts += ["--why"]
        exe = engine()
        run_engine(opts)
        with open(report) as f:
            res = Result(json.load(f), [exe] + opts, explain, explain_name(exe))
        if keep:
            _read_outputs(os.path.join(tmp, "out"), res,
                          sorted({r.dtype for r in res.rows}, key=[r.dtype for r in res.rows].index),
                          op)
        res.html = os.fspath(html) if html is not None else None
        return res
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
