"""ulpbench.run takes every option of the engine: the keyword table
against `ulpbench --help`, and a kernel file that needs -I, -D, --launch
and --param, and a shaped op's --shape, through run()."""
import re
import subprocess
import textwrap

import numpy as np
import pytest

import ulpbench
from ulpbench import _run

# run()'s own keywords, by the option they stand for
OWN = {"op", "mode", "dtype", "n", "seed", "input", "domain", "fpcore", "kernel", "entry",
       "args", "html", "dump", "json", "quiet", "launcher", "why", "schedules"}
# options that are not a run's: sharding, sbatch, explain, the actions
NOT_A_RUN = {"shard", "partial", "resume", "shards", "out", "submit", "sbatch", "at",
             "list-ops", "list-modes", "list-dtypes", "help", "version"}


def test_every_option_has_a_keyword():
    text = subprocess.run([ulpbench.engine(), "--help"], check=True, stdout=subprocess.PIPE,
                          text=True).stdout
    engine = set(re.findall(r"^\s+(?:-\w, )?--([\w-]+)", text, re.M))
    assert {"launch", "param", "shape", "include-path", "define-macro"} <= engine
    table = {opt.lstrip("-") for opt, _, _ in _run._OPTIONS.values()}
    table = {"include-path" if o == "I" else "define-macro" if o == "D" else o for o in table}
    missing = engine - OWN - NOT_A_RUN - table
    assert not missing, f"options without a run() keyword: {sorted(missing)}"
    assert not table - engine, f"keywords of no option: {sorted(table - engine)}"


def test_unknown_keyword():
    with pytest.raises(TypeError, match=r"unexpected keyword lanch \(the engine's options: "):
        ulpbench.run(op="atan_bwd", lanch="block=32")


def test_include_define_launch_param(tmp_path):
    """x * alpha by a kernel whose scale() comes from a header of an -I
    directory, whose elements per thread are a -D macro, launched in
    blocks of 32 x 4 threads doing PER elements each, alpha an op's
    :params set to 0.25: every output is x * 0.25, exact in float32 for
    x in [-1000, 1000] (numpy)."""
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "scale_helpers.h").write_text("__device__ inline float scale(float v, float a) "
                                         "{ return v * a; }\n")
    kernel = tmp_path / "scale2d.cu"
    kernel.write_text(textwrap.dedent("""\
        #include "scale_helpers.h"
        __global__ void scale2d(const float *x, float *out, float alpha, int n)
        {
            int t = threadIdx.y * blockDim.x + threadIdx.x, nt = blockDim.x * blockDim.y;
            for (int k = 0; k < PER; k++) {
                int i = (blockIdx.x * PER + k) * nt + t;
                if (i < n)
                    out[i] = scale(x[i], alpha);
            }
        }
        """))
    fpcore = "(FPCore py_scale (x) :params ([alpha 1.0]) :torch (* alpha x) (* alpha x))\n"
    res = ulpbench.run(op="py_scale", fpcore=fpcore, kernel=kernel, args="x=x,out=out",
                       modes="fma", n=3000, keep=True, domain={"x": (-1000, 1000)},
                       include=[inc], define={"PER": 2},
                       launch={"block": "32x4", "per_thread": 2}, param={"alpha": 0.25})
    x = res.inputs["f32"]["x"]
    assert (res.outputs["fma"].view(np.uint32) == (x * np.float32(0.25)).view(np.uint32)).all()
    row = res.row("fma")
    assert row.cr_mismatch == 0 and row.launch == "block=32x4,per-thread=2"
    assert row.params == "alpha=0.25"
    for flag in ("-I", "-D", "--launch", "--param"):
        assert flag in res.command


def test_shape():
    res = ulpbench.run(op="sum", shape=(16, 300), modes="fma", keep=True)
    assert res.inputs["f32"]["x"].shape == (16, 300)
    assert "--shape" in res.command and "16,300" in res.command
