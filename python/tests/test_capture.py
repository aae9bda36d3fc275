"""Tensors recorded by contrib/torch_capture.py go straight into run():
replayed through atan_bwd, the torch plan gives PyTorch's own gradient
(autograd's, recorded by the backward hook) bit for bit."""
import os
import subprocess
import sys

import numpy as np
import pytest

import ulpbench
from conftest import TREE, torch_or_skip


def same_bits(a, b):
    return a.shape == b.shape and (a.view(np.uint32) == b.view(np.uint32)).all()


def test_from_the_directory(tmp_path):
    torch_or_skip()
    d = tmp_path / "cap"
    subprocess.run([sys.executable, os.path.join(TREE, "contrib", "capture_example.py"), str(d)],
                   check=True, stdout=subprocess.DEVNULL)
    inputs = ulpbench.captured(str(d), "act", x="input0", g="grad_output0")
    res = ulpbench.run(op="atan_bwd", modes="nofma", inputs=inputs, keep=True)
    want = np.load(d / "act.grad_input0.npy")
    assert same_bits(res.outputs["torch"], want) and same_bits(res.outputs["nofma"], want)
    assert "output0" in ulpbench.captured(str(d), "act")
    with pytest.raises(KeyError, match="no 'output7'"):
        ulpbench.captured(str(d), "act", y="output7")


def test_from_the_recorder(tmp_path):
    torch = torch_or_skip()
    sys.path.insert(0, os.path.join(TREE, "contrib"))
    try:
        from torch_capture import capture
    finally:
        sys.path.pop(0)

    class Tanh(torch.nn.Module):
        def forward(self, x):
            return torch.tanh(x)

    model = torch.nn.Sequential(torch.nn.Linear(4, 64), Tanh())
    x = torch.randn(16, 4, generator=torch.Generator().manual_seed(0))
    with capture(model, str(tmp_path / "c"), ["1"]) as rec:
        model(x).sum().backward()
    saved = rec.saved["1"]
    # the forward's output, which tanh's backward takes as y
    assert same_bits(saved["output0"], torch.tanh(torch.from_numpy(saved["input0"])).numpy())
    res = ulpbench.run(op="tanh_bwd", modes="fma", keep=True,
                       inputs=ulpbench.captured(rec, "1", x="input0", g="grad_output0"))
    assert res.rows[0].n == 16 * 64 and res.outputs["fma"].shape == (16, 64)
