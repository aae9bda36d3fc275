"""torch_capture.py — save what each module of a PyTorch model saw, as .npy
files that `ulpbench --input` replays.

The usual hook recipe, packaged: a forward hook keeps each module's inputs,
a full backward hook (Module.register_full_backward_hook) its gradients.

    from torch_capture import capture

    with capture(model, "captured"):          # every submodule, or
        loss = model(x).square().sum()        # capture(model, dir, ["act"])
        loss.backward()

For each module NAME (as in model.named_modules(); the model itself is
"model" when asked for by the name "") it writes into the directory:

    NAME.input0.npy        the forward's first tensor argument (input1 ...)
    NAME.output0.npy       the forward's first tensor result (output1 ...):
                           what backward kernels that take the forward's
                           output (tanh, sigmoid: y) read
    NAME.grad_output0.npy  the gradient arriving at its first output
    NAME.grad_input0.npy   the gradient autograd computed for input0:
                           PyTorch's own backward, to compare with

in the tensors' own shape, C order, and dtype: float32 as <f4, float16 as
<f2, float64 as <f8, bfloat16 as <u2 holding its bits (NumPy has no
bfloat16; ulpbench reads <u2 as bf16).  Tensors of other dtypes and
gradients that are None are skipped.  A module that runs more than once
inside the `with` block is not written (its forward and backward calls
cannot be paired reliably); a warning names it.  Then, e.g. for a module
whose forward is torch.atan:

    ulpbench --op atan_bwd --input x=captured/act.input0.npy \\
             --input g=captured/act.grad_output0.npy --dump out/

and out/atan_bwd.f32.torch.npy is ulpbench's model of PyTorch's backward,
to compare with captured/act.grad_input0.npy.  From Python the arrays go
straight into ulpbench.run(inputs=...), from the directory or from the
recorder's .saved (docs/python.md).  See docs/capture.md.
"""
import contextlib
import os
import warnings

import numpy as np
import torch


def to_numpy(t):
    """A tensor as a C-order NumPy array in ulpbench's encoding, or None."""
    t = t.detach().cpu().contiguous()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(np.uint16)
    if t.dtype in (torch.float16, torch.float32, torch.float64):
        return t.numpy()
    return None


def _tensors(xs):
    if isinstance(xs, torch.Tensor):
        return [xs]
    return [x for x in xs if isinstance(x, torch.Tensor) or x is None]


class _Recorder:
    def __init__(self, directory):
        self.directory = directory
        self.saved = {}    # module name -> {file stem: array}
        self.calls = {}    # module name -> forward calls
        self.files = []

    def forward_hook(self, name):
        def hook(module, inputs, output):
            self.calls[name] = self.calls.get(name, 0) + 1
            arrays = self.saved.setdefault(name, {})
            for i, t in enumerate(_tensors(inputs)):
                if t is not None:
                    arrays[f"input{i}"] = to_numpy(t)
            for i, t in enumerate(_tensors(output)):
                if t is not None:
                    arrays[f"output{i}"] = to_numpy(t)
        return hook

    def backward_hook(self, name):
        def hook(module, grad_input, grad_output):
            arrays = self.saved.setdefault(name, {})
            for kind, grads in (("grad_input", grad_input), ("grad_output", grad_output)):
                for i, t in enumerate(_tensors(grads)):
                    if t is not None:
                        arrays[f"{kind}{i}"] = to_numpy(t)
        return hook

    def write(self):
        os.makedirs(self.directory, exist_ok=True)
        for name, arrays in sorted(self.saved.items()):
            if self.calls.get(name, 0) > 1:
                warnings.warn(f"torch_capture: module '{name}' ran {self.calls[name]} "
                              "times; not written (capture one call at a time)")
                continue
            for stem, a in sorted(arrays.items()):
                if a is None:
                    continue
                path = os.path.join(self.directory, f"{name}.{stem}.npy")
                np.save(path, a)
                self.files.append(path)


@contextlib.contextmanager
def capture(model, directory, modules=None):
    """Hooks `modules` (names from model.named_modules(); default: every
    submodule) while the block runs, then writes their tensors into
    `directory`.  Yields the recorder; its .files lists what was written."""
    named = dict(model.named_modules())
    if modules is None:
        modules = [n for n in named if n != ""]
    unknown = [n for n in modules if n not in named]
    if unknown:
        raise KeyError(f"no module named {unknown[0]!r} "
                       f"(valid: {', '.join(repr(n) for n in named)})")
    rec = _Recorder(directory)
    handles = []
    try:
        for n in modules:
            label = n or "model"
            handles.append(named[n].register_forward_hook(rec.forward_hook(label)))
            handles.append(named[n].register_full_backward_hook(rec.backward_hook(label)))
        yield rec
    finally:
        for h in handles:
            h.remove()
    rec.write()
