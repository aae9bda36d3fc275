#!/usr/bin/env python3
"""triton_compile.py - ulpbench's bridge to the user's own Triton.

ulpbench runs this script with the Python that has Triton (`--python`,
$ULPBENCH_PYTHON or python3) to read a @triton.jit kernel's parameters and to
compile it to PTX for one compile mode, without a GPU:

  triton_compile.py describe FILE.py KERNEL OUT
      OUT gets lines "KEY VALUE": triton (the version), package (where it
      is installed), python, env (each environment variable that changes
      Triton's output, NAME=VALUE), line (the kernel's def), one
      "param NAME constexpr|value [DEFAULT]" per parameter in order, then
      one "source PATH" per file of a module that importing FILE.py loaded
      (its helpers' files, which ulpbench's compile cache key holds; not
      FILE.py itself, Triton's own files or the standard library's).
  triton_compile.py compile FILE.py KERNEL OUT REQUEST
      REQUEST is a JSON object: signature (Triton type per parameter,
      "constexpr" for constexpr ones), constexprs (their values), aligned
      (pointer parameters promised 16-byte aligned, as Triton's launcher
      promises for tensors whose address is), options (enable_fp_fusion,
      num_warps) and arch (e.g. 90).  OUT gets one line "meta KEY=VALUE ..."
      of what the compiled kernel needs at launch, then the PTX.

The file's top-level statements run one by one with no GPU visible; one
that fails (GPU code at import) is skipped (run_statements).

Exit status: 0 done; 3 Triton cannot be imported; 4 the file or kernel is
not usable (one line on stderr says why); 5 Triton failed to compile it.
Nothing here talks to a GPU: triton.compile() is given the target itself.
"""
import importlib.util
import json
import os
import re
import sys

NO_TRITON, BAD_INPUT, COMPILE_FAILED = 3, 4, 5


def die(status, message):
    sys.stderr.write(message.rstrip().replace("\n", " ") + "\n")
    sys.exit(status)


def import_triton():
    try:
        import triton  # noqa: F401
        from triton.compiler import ASTSource  # noqa: F401
        from triton.backends.compiler import GPUTarget  # noqa: F401
    except Exception as e:  # ImportError, or a broken install
        die(NO_TRITON, "%s: %s" % (type(e).__name__, e))
    return sys.modules["triton"]


def last_frame(path):
    """'LINE: ' of the innermost traceback frame in the user's file."""
    tb = sys.exc_info()[2]
    line = None
    while tb is not None:
        if os.path.abspath(tb.tb_frame.f_code.co_filename) == path:
            line = tb.tb_lineno
        tb = tb.tb_next
    return "%d: " % line if line else ""


SOURCES = []


def sources(triton, path, modules):
    """The files of modules (those importing the user's file loaded), but
    the file itself, Triton's and the standard library's, sorted."""
    import sysconfig
    skip = [os.path.dirname(os.path.abspath(triton.__file__))]
    skip += [sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib")]
    skip = [os.path.realpath(d) + os.sep for d in skip]
    found = set()
    for m in modules:
        f = getattr(m, "__file__", None)
        if not isinstance(f, str) or not os.path.isfile(f):
            continue
        f = os.path.realpath(f)
        if f != os.path.realpath(path) and not any(f.startswith(d) for d in skip):
            found.add(f)
    return sorted(found)


# Top-level statements of the user's file that failed when it was loaded
# ("LINE: Type: message"), for the message of a compile that then fails.
SKIPPED = []


def run_statements(path, mod):
    """Runs the file's top-level statements in mod one after another, as an
    import would, but a statement that raises is skipped (SKIPPED) and the
    next one runs: no GPU is visible here (CUDA_VISIBLE_DEVICES is empty),
    so code that touches one at import (the Triton tutorials' `DEVICE =
    triton.runtime.driver.active.get_active_torch_device()`, a test run of
    the kernel, a benchmark) fails at once, and so does what depends on it,
    while the imports and the kernels' defs run."""
    import __future__
    import ast
    with open(path, "rb") as f:
        tree = ast.parse(f.read(), path)
    flags = 0
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            for a in node.names:
                flags |= getattr(getattr(__future__, a.name, None),
                                 "compiler_flag", 0)
        code = compile(ast.Module(body=[node], type_ignores=[]), path, "exec",
                       flags=flags, dont_inherit=True)
        try:
            exec(code, mod.__dict__)
        except (Exception, SystemExit) as e:
            SKIPPED.append("%d: %s: %s" % (node.lineno, type(e).__name__,
                                           " ".join(str(e).split())))


def load_kernel(triton, path, name):
    """The JITFunction `name` of the file at path (autotune/heuristics
    wrappers taken off: ulpbench sets constexprs itself)."""
    from triton.runtime.jit import JITFunction
    path = os.path.abspath(path)
    sys.path.insert(0, os.path.dirname(path))  # its own imports
    spec = importlib.util.spec_from_file_location("ulpbench_triton_user", path)
    if spec is None or spec.loader is None:
        die(BAD_INPUT, "not a Python file")
    mod = importlib.util.module_from_spec(spec)
    before = set(sys.modules)
    try:
        run_statements(path, mod)
    except SyntaxError as e:
        die(BAD_INPUT, "%s: %s" % (e.lineno, e.msg))
    except (OSError, ValueError) as e:
        die(BAD_INPUT, "%s: %s" % (type(e).__name__, e))
    SOURCES[:] = sources(triton, path, [sys.modules[m] for m in set(sys.modules) - before])
    jits = sorted(k for k, v in vars(mod).items() if isinstance(v, JITFunction)
                  or isinstance(getattr(v, "fn", None), JITFunction))
    fn = getattr(mod, name, None)
    while fn is not None and not isinstance(fn, JITFunction) and hasattr(fn, "fn"):
        fn = fn.fn
    if not isinstance(fn, JITFunction):
        die(BAD_INPUT, "no @triton.jit kernel '%s' (kernels here: %s)%s"
            % (name, ", ".join(jits) if jits else "none", skipped_note()))
    return fn


def skipped_note():
    """" (top-level statements that failed ...: LINE: ...)" or ""."""
    if not SKIPPED:
        return ""
    return (" (%d top-level statement%s of the file failed without a GPU and "
            "%s skipped, the first at line %s)"
            % (len(SKIPPED), "s" if len(SKIPPED) > 1 else "",
               "were" if len(SKIPPED) > 1 else "was", SKIPPED[0]))


def one_line(v):
    return " ".join(repr(v).split())


def def_line(fn):
    """The line of the kernel's `def` (after its decorators), or 0."""
    import inspect
    try:
        lines, start = inspect.getsourcelines(fn.fn)
    except (OSError, TypeError):
        return 0
    for i, text in enumerate(lines):
        if text.lstrip().startswith("def "):
            return start + i
    return start


def describe(triton, path, name, out):
    from triton._C.libtriton import get_cache_invalidating_env_vars
    fn = load_kernel(triton, path, name)
    if triton.knobs.compilation.override:
        die(BAD_INPUT, "TRITON_KERNEL_OVERRIDE is set: Triton would replace the "
            "kernel by files of TRITON_OVERRIDE_DIR; unset it")
    lines = ["triton " + triton.__version__,
             "package " + os.path.dirname(os.path.abspath(triton.__file__)),
             "python " + sys.executable, "line %d" % def_line(fn)]
    env = get_cache_invalidating_env_vars()
    lines += ["env %s=%s" % (k, one_line(env[k])) for k in sorted(env)]
    for p in fn.params:
        kind = "constexpr" if p.is_constexpr else "value"
        lines.append("param %s %s%s" % (p.name, kind, " " + one_line(p.default)
                                        if p.has_default else ""))
    lines += ["source " + f for f in SOURCES if "\n" not in f]
    if any("\n" in f for f in SOURCES):  # cannot be listed: never cached
        lines.append("uncacheable")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


def entry_params(ptx, name):
    """How many .param the PTX's .entry NAME declares."""
    m = re.search(r"\.entry\s+" + re.escape(name) + r"\s*\(([^)]*)\)", ptx)
    return m.group(1).count(".param") if m else -1


def compile_kernel(triton, path, name, out, request):
    from triton.compiler import ASTSource
    from triton.backends.compiler import GPUTarget
    fn = load_kernel(triton, path, name)
    req = json.loads(request)
    index = {p.name: i for i, p in enumerate(fn.params)}
    attrs = {(index[a],): [["tt.divisibility", 16]] for a in req["aligned"]}
    src = ASTSource(fn, signature=req["signature"], constexprs=req["constexprs"],
                    attrs=attrs)
    try:
        k = triton.compile(src, target=GPUTarget("cuda", int(req["arch"]), 32),
                           options=req["options"])
        ptx = k.asm["ptx"]
    except Exception as e:  # CompilationError: the node is in the def's source
        node, start = getattr(e, "node", None), def_line(fn)
        text = getattr(e, "error_message", None) or \
            (str(e).strip().splitlines() or [type(e).__name__])[-1]
        line = getattr(node, "lineno", 0) if start else 0
        die(COMPILE_FAILED, ("%d: " % (start + line - 1) if line else "") + text +
            skipped_note())
    md = k.metadata
    if bool(md.enable_fp_fusion) != bool(req["options"]["enable_fp_fusion"]):
        die(COMPILE_FAILED, "Triton compiled with enable_fp_fusion=%s, not %s "
            "(is TRITON_FORCE_DISABLE_FP_FUSION set?)"
            % (md.enable_fp_fusion, req["options"]["enable_fp_fusion"]))
    for what in ("global_scratch_size", "profile_scratch_size"):
        if getattr(md, what, 0):
            die(COMPILE_FAILED, "the kernel needs %s = %d bytes of scratch "
                "memory, which ulpbench does not provide" % (what, getattr(md, what)))
    nuser = sum(1 for p in fn.params if not p.is_constexpr)
    meta = "meta num_warps=%d shared=%d fusion=%d hidden=%d" % (
        md.num_warps, md.shared, bool(md.enable_fp_fusion),
        entry_params(ptx, md.name) - nuser)
    with open(out, "w") as f:
        f.write(meta + "\n" + ptx)


def main(argv):
    os.environ["CUDA_VISIBLE_DEVICES"] = ""  # compiling needs no GPU: none
    if len(argv) < 5 or argv[1] not in ("describe", "compile"):
        die(BAD_INPUT, "usage: triton_compile.py describe|compile FILE.py KERNEL OUT [REQUEST]")
    triton = import_triton()
    if argv[1] == "describe":
        describe(triton, argv[2], argv[3], argv[4])
    elif len(argv) == 6:
        compile_kernel(triton, argv[2], argv[3], argv[4], argv[5])
    else:
        die(BAD_INPUT, "compile needs a REQUEST")


if __name__ == "__main__":
    main(sys.argv)
