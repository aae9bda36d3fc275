"""assert_matches_torch and assert_max_ulp: pass when they should, and
fail with a message a person can act on."""
import pathlib
import re
import shlex
import subprocess

import pytest

import ulpbench


def test_matches_torch_passes_for_nofma():
    res = ulpbench.assert_matches_torch(op="atan_bwd", mode="nofma", n=20000)
    assert res.row("nofma").torch_mismatch == 0


def test_matches_torch_fails_for_fma_with_the_element():
    with pytest.raises(AssertionError) as e:
        ulpbench.assert_matches_torch(op="atan_bwd", mode="fma", n=20000, seed=3)
    msg = str(e.value)
    # the count is the engine's own row (the CSV's torch_mismatch)
    row = ulpbench.run(op="atan_bwd", modes="fma", n=20000, seed=3).row("fma")
    assert re.match(rf"atan_bwd f32, mode fma: {row.torch_mismatch} of 20000 elements "
                    rf"differ from the torch plan, by up to {row.torch_max_dist} units", msg)
    assert re.search(r"at element \d+: x = 0x[0-9a-f]{8} \(\S+\), g = 0x[0-9a-f]{8} \(\S+\)",
                     msg)
    fma = re.search(r"fma: +0x([0-9a-f]{8})", msg).group(1)
    torch = re.search(r"torch: +0x([0-9a-f]{8})", msg).group(1)
    assert fma != torch
    assert "correctly rounded: 0x" in msg and "replay: seed=3: " in msg
    # the explain command runs and traces that input, fma differing from torch
    cmd = re.search(r"why: (.*)", msg).group(1)
    out = subprocess.run(shlex.split(cmd), check=True, stdout=subprocess.PIPE, text=True).stdout
    x = re.search(r"x = (0x[0-9a-f]{8})", msg).group(1)
    assert f"  x = {x}" in out and f"0x{fma}" in out and f"0x{torch}" in out
    # the cause: every difference goes to the contracted fma of the kernel's
    # one line (kernels/atan_bwd.cu); the fix there, compiled and run, gives
    # the torch plan's three roundings: no difference left
    n = row.torch_mismatch
    assert re.search(rf"  cause \(f32\): {n}/{n}: 5 fma\.rn\.f32 at ptx:[0-9,]+ "
                     rf"\(atan_bwd\.cu:\d+\) split", msg), msg
    assert "__fmul_rn(in[i], in[i])" in msg
    assert "verified: the fixed kernel gives torch_mismatch 0 " in msg


def test_run_why():
    row = ulpbench.run(op="atan_bwd", modes="fma", n=20000, why=True).row("fma")
    assert row.why_torch.startswith(f"{row.torch_mismatch}/{row.torch_mismatch}: ")
    assert row.fixed_torch_mismatch == 0 and "__fmul_rn" in row.why_fix
    plain = ulpbench.run(op="atan_bwd", modes="fma", n=2000).row("fma")
    assert plain.why_torch is None and plain.fixed_torch_mismatch is None


def test_max_ulp():
    res = ulpbench.assert_max_ulp(op="atan_bwd", mode="fma", bound=2.5, n=20000,
                                  domain={"x": (-1e18, 1e18)})
    assert res.row("fma").max_ulp <= 2.5
    with pytest.raises(AssertionError) as e:  # overflow of x*x: 1.68e7 ulp (README)
        ulpbench.assert_max_ulp(op="atan_bwd", mode="fma", bound=2.5, n=20000)
    msg = str(e.value)
    assert re.match(r"atan_bwd f32, mode fma: max_ulp 1\.67\d*e\+07 > 2\.5 and 16 NaN/inf "
                    r"disagreements; \d+ of 20000 elements differ from the correctly rounded",
                    msg), msg
    assert "the worst, 1.67" in msg and "why: " in msg and "replay: seed=1" in msg


def test_modes_keyword_refused():
    with pytest.raises(TypeError, match="mode="):
        ulpbench.assert_matches_torch(op="atan_bwd", mode="fma", modes="fma,nofma")


# A block sum without __syncthreads() between its steps (tests/data/checks/
# race_sum.cu): racecheck finds hazards, and an assertion fails on them,
# naming the first, unless told that hazards are allowed.
RACE = dict(op="sum", kernel=str(pathlib.Path(__file__).resolve().parents[2] /
                                 "tests/data/checks/race_sum.cu"),
            args="x=x,out=out,rows=rows,cols=cols", launch="block=128,per-block=1")


def test_hazard_fails_an_assertion():
    with pytest.raises(AssertionError) as e:
        ulpbench.assert_max_ulp(mode="fma", bound=1e30, **RACE)
    msg = str(e.value)
    assert re.match(r"sum f32, mode fma: racecheck found \d+ hazard\(s\) "
                    r"\(allow_hazards=True to compare anyway\); the first: .*"
                    r"hazard on element \d+ of __shared__ 'part'.*race_sum\.cu:2[23]", msg), msg
    res = ulpbench.assert_max_ulp(mode="fma", bound=1e30, allow_hazards=True, **RACE)
    row = res.row("fma")
    assert row.racecheck >= 1 and row.initcheck == "tracked" and row.schedules == 4
