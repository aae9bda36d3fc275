"""ulpbench from Python: run the engine on NumPy arrays or PyTorch tensors,
read its rows, and assert that a kernel matches PyTorch or stays within a
ULP bound (docs/python.md).

    import ulpbench
    res = ulpbench.run(op="atan_bwd", kernel="my.cu", modes="fma,nofma", n=100000)
    res.row("fma").torch_mismatch
    ulpbench.assert_matches_torch(op="atan_bwd", kernel="my.cu", mode="nofma")

The package drives the ulpbench binary (see _engine.py for where it looks
for it; $ULPBENCH names one)."""
from ._asserts import assert_matches_torch, assert_max_ulp
from ._engine import EngineNotFound, UlpbenchError, engine
from ._run import Outputs, Result, Row, run
from .capture import captured

__all__ = ["run", "Result", "Row", "Outputs", "assert_matches_torch", "assert_max_ulp",
           "UlpbenchError", "EngineNotFound", "engine", "captured"]
__version__ = "0.1.0"
