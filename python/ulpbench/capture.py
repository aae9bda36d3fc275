"""Tensors that contrib/torch_capture.py recorded, as run() inputs.

torch_capture writes, per module NAME, NAME.input0.npy (the forward's
inputs), NAME.output0.npy (its outputs, which backward kernels that take
the forward's result need), NAME.grad_output0.npy and NAME.grad_input0.npy
(the gradients), in ulpbench's encoding (bfloat16 as uint16 bits).  Its
recorder's .saved[NAME] holds the same arrays before they are written.
Either goes straight into run(inputs=...):

    inputs = ulpbench.captured("captured", "act", x="input0", g="grad_output0")
    ulpbench.run(op="atan_bwd", inputs=inputs)

    with capture(model, "captured") as rec: ...
    ulpbench.run(op="atan_bwd", inputs={"x": rec.saved["act"]["input0"],
                                        "g": rec.saved["act"]["grad_output0"]})"""
import os

import numpy as np


def captured(source, module, **names):
    """The arrays of one module, renamed for an op: names maps each op
    input to a recorded stem ("input0", "output0", "grad_output0", ...).
    source is the directory torch_capture wrote, or its recorder (or its
    .saved dict).  Without names: every stem of the module."""
    saved = getattr(source, "saved", source)
    if isinstance(saved, (str, os.PathLike)):
        arrays = _from_directory(os.fspath(saved), module)
    else:
        if module not in saved:
            raise KeyError(f"no module {module!r} was recorded (recorded: "
                           f"{', '.join(sorted(saved))})")
        arrays = dict(saved[module])
    if not names:
        return arrays
    out = {}
    for op_input, stem in names.items():
        if stem not in arrays:
            raise KeyError(f"module {module!r} has no {stem!r} (recorded: "
                           f"{', '.join(sorted(arrays))})")
        out[op_input] = arrays[stem]
    return out


def _from_directory(directory, module):
    prefix = module + "."
    arrays = {}
    for name in sorted(os.listdir(directory)):
        if name.startswith(prefix) and name.endswith(".npy"):
            arrays[name[len(prefix):-4]] = np.load(os.path.join(directory, name))
    if not arrays:
        raise FileNotFoundError(f"{directory}: no {prefix}*.npy files (torch_capture "
                                "writes NAME.input0.npy, NAME.grad_output0.npy, ...)")
    return arrays
