"""Finding the ulpbench binary and running it.

The package drives the engine as a program: it writes the inputs as .npy
files, runs `ulpbench ... --json FILE [--dump DIR]` and reads what came
back.  That keeps the engine's one-line error messages and exit statuses
exactly as on the command line, and needs no shared library build.

Where the engine is, in order:
  1. $ULPBENCH, the path of a binary (an error if it is not one);
  2. the installed one, BINDIR/ulpbench of the tree the package came from
     (after `make install`);
  3. that tree's own build, BUILDDIR/ulpbench (a built tree, no install);
  4. the one the package's wheel installed with it, bin/ulpbench of this
     Python's prefix (a wheel built from a source tree that was not
     built carries the engine);
  5. ../../ulpbench beside this package, when it is imported from the
     source tree itself (PYTHONPATH=python);
  6. `ulpbench` on PATH.
BINDIR and BUILDDIR come from _where.py, which `make` writes into
python/ulpbench/ of the build tree (so `pip install ./python` after
`make` carries them)."""
import os
import shutil
import subprocess
import sys

try:
    from . import _where
except ImportError:  # a copy of the package without make's file
    _where = None


class UlpbenchError(Exception):
    """The engine failed: .message is its one-line message (as it printed
    it, "ulpbench: ..."), .status its exit status (2 usage or input, 3
    compile, 4 run, 5 output file; docs/cli.md), .command what ran."""

    def __init__(self, message, status=None, command=None):
        super().__init__(message)
        self.message = message
        self.status = status
        self.command = command

    def __str__(self):
        if self.status is None:
            return self.message
        return f"{self.message} (exit status {self.status})"


class EngineNotFound(UlpbenchError):
    """No ulpbench binary where the package looks for one."""


def _executable(path):
    return path and os.path.isfile(path) and os.access(path, os.X_OK)


def candidates():
    """Where the engine is looked for, in order: (what, path) pairs."""
    out = []
    env = os.environ.get("ULPBENCH")
    if env:
        out.append(("$ULPBENCH", env))
    if _where is not None:
        out.append(("installed", os.path.join(_where.BINDIR, "ulpbench")))
        out.append(("build tree", os.path.join(_where.BUILDDIR, "ulpbench")))
    out.append(("with the package", os.path.join(sys.prefix, "bin", "ulpbench")))
    here = os.path.dirname(os.path.abspath(__file__))
    out.append(("source tree", os.path.normpath(os.path.join(here, "..", "..", "ulpbench"))))
    found = shutil.which("ulpbench")
    if found:
        out.append(("PATH", found))
    return out


def engine():
    """The path of the ulpbench binary (EngineNotFound when there is none)."""
    env = os.environ.get("ULPBENCH")
    if env:
        if not _executable(env):
            raise EngineNotFound(f"ulpbench: ULPBENCH={env}: not an executable file")
        return env
    for what, path in candidates():
        if _executable(path):
            return path
    raise EngineNotFound(
        "ulpbench: the ulpbench binary was not found (looked in: "
        + ", ".join(f"{w} {p}" for w, p in candidates())
        + "): build the source tree (make), make install, or set ULPBENCH=/path/to/ulpbench")


def explain_name(path):
    """How a printed command names the engine: `ulpbench` when that is the
    one on PATH, else its path."""
    found = shutil.which("ulpbench")
    if found and os.path.realpath(found) == os.path.realpath(path):
        return "ulpbench"
    return path


def run_engine(args, cwd=None):
    """Runs the engine with args; returns its stdout.  A non-zero exit
    raises UlpbenchError with the engine's message (its last line on
    stderr; the progress line never goes there with -q)."""
    exe = engine()
    cmd = [exe] + [str(a) for a in args]
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
    if proc.returncode != 0:
        lines = [l for l in proc.stderr.splitlines() if l.strip()]
        msg = lines[-1] if lines else f"ulpbench: exited with status {proc.returncode}"
        if len(lines) > 1 and proc.returncode == 3:  # compiler output, then the line
            msg = "\n".join(lines)
        raise UlpbenchError(msg, proc.returncode, cmd)
    return proc.stdout
