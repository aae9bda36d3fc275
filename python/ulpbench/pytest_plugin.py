"""The pytest plugin (entry point pytest11, so installing the package is
enough): a `ulpbench` fixture whose run / assert_matches_torch /
assert_max_ulp are those of the package, plus

  --ulpbench-html DIR   keep each test's HTML report in DIR (one page per
                        call: DIR/<test id>.html, then -2, -3, ...);
  --ulpbench-seed S     the seed of every call that does not give one
                        (failure messages print the seed of the run and
                        its command, to replay it).

The report header names the engine the tests use."""
import os
import re

import pytest

from . import _asserts, _engine, _run


def pytest_addoption(parser):
    group = parser.getgroup("ulpbench")
    group.addoption("--ulpbench-html", metavar="DIR", default=None,
                    help="keep each test's ulpbench HTML report in DIR")
    group.addoption("--ulpbench-seed", metavar="S", type=int, default=None,
                    help="seed for ulpbench runs that give none (default: the engine's, 1)")


def pytest_report_header(config):
    try:
        return f"ulpbench: {_engine.engine()}"
    except _engine.UlpbenchError as e:
        return f"ulpbench: {e}"


class Bench:
    """What the `ulpbench` fixture gives a test."""

    def __init__(self, nodeid, html_dir, seed):
        self._stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", nodeid).strip("_")
        self._html_dir = html_dir
        self._seed = seed
        self._calls = 0
        self.pages = []  # the HTML reports this test wrote

    def _kw(self, kw):
        kw = dict(kw)
        if self._seed is not None:
            kw.setdefault("seed", self._seed)
        if self._html_dir is not None and "html" not in kw:
            self._calls += 1
            os.makedirs(self._html_dir, exist_ok=True)
            name = self._stem + (f"-{self._calls}" if self._calls > 1 else "") + ".html"
            kw["html"] = os.path.join(self._html_dir, name)
            self.pages.append(kw["html"])
        return kw

    @property
    def engine(self):
        return _engine.engine()

    def run(self, **kw):
        return _run.run(**self._kw(kw))

    def assert_matches_torch(self, op, mode, **kw):
        __tracebackhide__ = True
        return _asserts.assert_matches_torch(op, mode, **self._kw(kw))

    def assert_max_ulp(self, op, mode, bound, **kw):
        __tracebackhide__ = True
        return _asserts.assert_max_ulp(op, mode, bound, **self._kw(kw))


@pytest.fixture
def ulpbench(request):
    """Runs ulpbench for this test (see ulpbench.run and the asserts)."""
    opt = request.config.getoption
    return Bench(request.node.nodeid, opt("--ulpbench-html"), opt("--ulpbench-seed"))
