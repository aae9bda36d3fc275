"""capture_example.py — the walkthrough of docs/capture.md as a script: a
toy model whose middle module is torch.atan, one training step captured
with torch_capture, files ready for ulpbench.

    python3 contrib/capture_example.py DIR

writes DIR/proj.*.npy, DIR/act.*.npy, DIR/head.*.npy and prints the
ulpbench command that replays the atan module.
"""
import os
import sys

import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_capture import capture  # noqa: E402


class Atan(nn.Module):
    def forward(self, x):
        return torch.atan(x)


class Toy(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 16)
        self.act = Atan()
        self.head = nn.Linear(16, 2)

    def forward(self, x):
        return self.head(self.act(self.proj(x)))


def main(directory):
    torch.manual_seed(0)
    model = Toy()
    x = torch.randn(8, 32, 3) * 4          # a batch of 8 sequences of 32
    with capture(model, directory) as rec:
        loss = model(x).square().sum()
        loss.backward()
    for f in rec.files:
        print(f)
    print(f"ulpbench --op atan_bwd --input x={directory}/act.input0.npy "
          f"--input g={directory}/act.grad_output0.npy --dump {directory}/out")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "captured")
