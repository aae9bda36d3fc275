"""The pytest plugin on an extension author's test file
(python/examples/test_atan_backward.py), run by pytest in a subprocess as
a user runs it: the nofma test passes, the fma test fails with the
readable message, and --ulpbench-html keeps a page per test."""
import os
import re
import subprocess

from conftest import TREE, argv_of_pytest

EXAMPLE = os.path.join(TREE, "python", "examples", "test_atan_backward.py")


def run_pytest(*args):
    env = dict(os.environ)
    cmd = argv_of_pytest(env)
    return subprocess.run(cmd + list(args), env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)


def test_example_file(tmp_path):
    html = tmp_path / "pages"
    p = run_pytest(EXAMPLE, "-q", "--ulpbench-html", str(html), "--ulpbench-seed", "5")
    out = p.stdout
    assert p.returncode == 1, out
    assert re.search(r"^1 failed, 2 passed", out, re.M), out
    assert "FAILED " in out and "test_default_build_matches_pytorch" in out
    # the message, as pytest prints it
    assert re.search(r"E +AssertionError: atan_bwd f32, mode fma: \d+ of 20000 elements "
                     r"differ from the torch plan, by up to \d+ units", out), out
    assert re.search(r"E +at element \d+: x = 0x[0-9a-f]{8} \(", out)
    assert re.search(r"E +fma: +0x[0-9a-f]{8}", out) and re.search(r"E +torch: +0x", out)
    assert re.search(r"E +why: \S+ explain --kernel \S+atan_backward.cu --args dout=g,din=out "
                     r"--op atan_bwd --dtype f32 --at x=0x[0-9a-f]{8},g=0x[0-9a-f]{8}", out)
    assert re.search(r"E +replay: seed=5: .* --seed 5", out)
    # the library's own frames are hidden: the test's line is what shows
    assert "_asserts.py" not in out
    pages = sorted(os.listdir(html))
    assert len(pages) == 3 and all(p.endswith(".html") for p in pages), pages
    assert any("test_default_build_matches_pytorch" in p for p in pages)


def test_header_names_the_engine(tmp_path):
    t = tmp_path / "test_one.py"
    t.write_text("def test_fixture(ulpbench):\n"
                 "    assert ulpbench.run(op='atan_bwd', modes='rn', n=100).rows\n")
    p = run_pytest(str(t))
    assert p.returncode == 0, p.stdout
    assert re.search(r"^ulpbench: /\S+ulpbench$", p.stdout, re.M), p.stdout
