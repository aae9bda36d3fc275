"""Shared by the package's tests: the source tree, and torch when present.
tests/python.test runs them with ULPBENCH naming the built engine."""
import os

import pytest

TREE = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


@pytest.fixture
def tree():
    return TREE


def torch_or_skip():
    return pytest.importorskip("torch", reason="PyTorch is not installed (Debian: python3-torch)")
