"""Shared by the package's tests: the source tree, and torch when present.
tests/python.test runs them with ULPBENCH naming the built engine."""
import os
import sys

import pytest

TREE = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


@pytest.fixture
def tree():
    return TREE


def torch_or_skip():
    return pytest.importorskip("torch", reason="PyTorch is not installed (Debian: python3-torch)")


def argv_of_pytest(env):
    """pytest in a subprocess with the package under test: the source
    tree's (PYTHONPATH into env, the plugin named with -p, as
    tests/python.test runs them) or an installed one (a wheel's, in its
    own environment: its install registered the plugin)."""
    import ulpbench
    installed = not os.path.abspath(ulpbench.__file__).startswith(os.path.join(TREE, "python") + os.sep)
    argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"]
    if not installed:
        env["PYTHONPATH"] = os.path.join(TREE, "python") + os.pathsep + env.get("PYTHONPATH", "")
        argv += ["-p", "ulpbench.pytest_plugin"]
    return argv
