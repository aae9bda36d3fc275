"""ulpbench.run: rows as objects, outputs and inputs, torch tensors and
NumPy arrays in, errors as exceptions."""
import csv
import io
import os
import subprocess

import numpy as np
import pytest

import ulpbench
from ulpbench import _engine
from conftest import torch_or_skip


def engine_csv(*args):
    """The engine's own CSV for the same run: the reference the rows must
    equal (another report of the same numbers, through another writer)."""
    out = subprocess.run([ulpbench.engine(), *args, "-q", "--csv", "-"], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    return list(csv.DictReader(io.StringIO(out)))


def test_rows_are_the_csv_rows_typed():
    res = ulpbench.run(op="atan_bwd", modes="fma,nofma", n=5000)
    want = engine_csv("--op", "atan_bwd", "--mode", "fma,nofma", "-n", "5000")
    assert [r.mode for r in res.rows] == [w["mode"] for w in want] == ["fma", "nofma", "torch"]
    for r, w in zip(res.rows, want):
        assert set(w) <= set(vars(r)), set(w) - set(vars(r))
        assert isinstance(r.torch_mismatch, int) and isinstance(r.max_ulp, float)
        assert r.torch_mismatch == int(w["torch_mismatch"])
        assert float(f"{r.max_ulp:.6g}") == float(w["max_ulp"])  # the CSV has 6 digits
        assert r.worst_input == w["worst_input"] and r.n == 5000
    # docs/csv.md, README: nofma rounds each step as PyTorch's kernels do
    assert res.row("nofma").torch_mismatch == 0
    assert res.row("fma").torch_mismatch > 0
    assert res.seed == 1 and res.n == 5000


def test_keep_outputs_and_inputs():
    res = ulpbench.run(op="atan_bwd", modes=["nofma"], n=3000, seed=7, keep=True)
    out = res.outputs
    assert set(k for k in out if isinstance(k, tuple)) == {("f32", "nofma"), ("f32", "torch"),
                                                           ("f32", "ref")}
    assert out["nofma"].dtype == np.float32 and out["nofma"].shape == (3000,)
    assert (out["nofma"].view(np.uint32) == out["torch"].view(np.uint32)).all()
    x, g = res.inputs["f32"]["x"], res.inputs["f32"]["g"]
    assert x.shape == g.shape == (3000,) and res.seed == 7


def test_torch_plan_is_pytorch():
    """The torch plan of the drawn inputs against PyTorch on the CPU: x*x,
    +1 and the division are three correctly rounded float32 operations,
    as in PyTorch's CUDA kernels (reference/torch-backward.md)."""
    torch = torch_or_skip()
    res = ulpbench.run(op="atan_bwd", modes="nofma", n=4000, keep=True)
    x = torch.from_numpy(res.inputs["f32"]["x"])
    g = torch.from_numpy(res.inputs["f32"]["g"])
    want = (g / (x * x + 1)).numpy()
    got = res.outputs["torch"]
    same = (got.view(np.uint32) == want.view(np.uint32)) | (np.isnan(got) & np.isnan(want))
    assert same.all(), int((~same).sum())


def test_numpy_and_torch_inputs():
    torch = torch_or_skip()
    xs = np.linspace(-3, 3, 257, dtype=np.float32).reshape(257, 1)
    gs = np.ones_like(xs)
    a = ulpbench.run(op="atan_bwd", modes="nofma", inputs={"x": xs, "g": gs}, keep=True)
    b = ulpbench.run(op="atan_bwd", modes="nofma",
                     inputs={"x": torch.from_numpy(xs), "g": torch.from_numpy(gs)}, keep=True)
    assert a.rows[0].n == 257 and a.outputs["nofma"].shape == (257, 1)
    assert (a.outputs["nofma"] == b.outputs["nofma"]).all()
    assert (a.inputs["f32"]["x"] == xs).all()
    # bfloat16 tensors arrive as their bits; the run is bf16
    xb = torch.linspace(-3, 3, 129).to(torch.bfloat16)
    c = ulpbench.run(op="tanh_bwd", modes="fma", inputs={"x": xb, "g": torch.ones_like(xb)},
                     keep=True)
    assert [r.dtype for r in c.rows] == ["bf16", "bf16"]
    assert (c.inputs["bf16"]["x"] == xb.view(torch.int16).numpy().view(np.uint16)).all()


def test_input_dtype_mismatch_refused():
    with pytest.raises(ValueError, match="input 'x' is f64 but dtype is 'f32'"):
        ulpbench.run(op="atan_bwd", dtype="f32",
                     inputs={"x": np.zeros(4), "g": np.zeros(4, dtype=np.float32)})
    # integers go to the engine as they are (an op's ids, classes, masks);
    # an op whose input is not integer refuses them
    with pytest.raises(ulpbench.UlpbenchError, match="expected dtype <f4, found <i8"):
        ulpbench.run(op="atan_bwd", inputs={"x": np.zeros(4, dtype=np.int64),
                                            "g": np.zeros(4, dtype=np.float32)})


def test_values_are_never_changed_unsaid():
    with pytest.raises(ValueError, match=r"n=1\.5: a whole number"):
        ulpbench.run(op="atan_bwd", n=1.5)
    with pytest.raises(TypeError, match="seed: a whole number, not str"):
        ulpbench.run(op="atan_bwd", n=10, seed="7")
    with pytest.raises(ValueError, match=r"domain\['x'\]: 'abc' is neither 'LO:HI' nor"):
        ulpbench.run(op="atan_bwd", n=10, domain={"x": "abc"})
    with pytest.raises(ulpbench.UlpbenchError) as e:  # the engine's refusal
        ulpbench.run(op="atan_bwd", n=10, domain={"x": "1e400:1e401"})
    assert e.value.status == 2 and "beyond the largest double" in e.value.message
    # an empty array compares nothing: refused, never a pass
    with pytest.raises(ulpbench.UlpbenchError) as e:
        ulpbench.run(op="sqrt", inputs={"x": np.zeros(0, dtype=np.float32)})
    assert e.value.status == 2 and "holds no element" in e.value.message
    assert ulpbench.run(op="atan_bwd", n=1e3, modes=["fma"]).rows[0].n == 1000


def test_engine_errors_are_exceptions():
    with pytest.raises(ulpbench.UlpbenchError) as e:
        ulpbench.run(op="no_such_op", n=10)
    assert e.value.status == 2
    assert e.value.message.startswith("ulpbench: unknown op 'no_such_op' (valid: ")
    assert "\n" not in e.value.message
    with pytest.raises(ulpbench.UlpbenchError) as e:
        ulpbench.run(op="atan_bwd", n=10, kernel=(
            'extern "C" __global__ void k(const float *x, const float *g, float *out, int n)\n'
            "{ out[0] = no_such_name; }\n"))
    assert e.value.status == 3, e.value  # the compiler's lines, then the engine's
    assert "no_such_name" in e.value.message


def test_engine_lookup(monkeypatch, tmp_path):
    monkeypatch.setenv("ULPBENCH", str(tmp_path / "nothing"))
    with pytest.raises(ulpbench.EngineNotFound, match="ULPBENCH=.*nothing: not an executable"):
        ulpbench.run(op="atan_bwd", n=10)
    # without ULPBENCH: the installed engine before the build tree's
    monkeypatch.delenv("ULPBENCH")
    inst, build = tmp_path / "bin", tmp_path / "build"
    for d in (inst, build):
        d.mkdir()
        (d / "ulpbench").write_text("#!/bin/sh\n")
        (d / "ulpbench").chmod(0o755)

    class Where:
        BINDIR, BUILDDIR = str(inst), str(build)
    monkeypatch.setattr(_engine, "_where", Where)
    assert ulpbench.engine() == str(inst / "ulpbench")
    os.unlink(inst / "ulpbench")
    assert ulpbench.engine() == str(build / "ulpbench")


def test_ops_over_rows_shape_params_and_integer_inputs(tmp_path):
    """An op over rows of several outputs (shape, params: its rows name each
    output), and one taking class indices as an int64 array: the engine's
    own CSV of the same run gives the same rows."""
    res = ulpbench.run(op="adamw", shape=(2, 8), params={"lr": 0.01})
    assert [r.output for r in res.rows] == ["param", "exp_avg", "exp_avg_sq"]
    assert all("lr=0.01;" in r.params for r in res.rows)
    p = np.linspace(0.05, 0.9, 12, dtype=np.float32).reshape(3, 4)
    t = np.array([0, 3, 1], dtype=np.int64)
    res = ulpbench.run(op="cross_entropy_probs", inputs={"p": p, "target": t})
    np.save(tmp_path / "p.npy", p)
    np.save(tmp_path / "t.npy", t)
    want = engine_csv("--op", "cross_entropy_probs", "--input", f"p={tmp_path}/p.npy",
                      "--input", f"target={tmp_path}/t.npy")
    assert [r.mode for r in res.rows] == [w["mode"] for w in want] == ["torch"]
    assert res.rows[0].n == 3 and res.rows[0].cr_mismatch == int(want[0]["cr_mismatch"])
