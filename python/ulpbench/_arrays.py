"""Inputs as the engine reads them: NumPy arrays in ulpbench's encoding.

float32, float16 and float64 arrays are f32, f16 and f64; bfloat16 is a
uint16 array holding its bits (NumPy has no bfloat16; the engine and
contrib/torch_capture.py use the same convention).  PyTorch tensors, on
any device, are detached and copied to the CPU first.  Nothing is ever
converted between dtypes: a value rounded on the way would be tested as
another input than the one given."""
import os

import numpy as np

NUMPY_DTYPES = {"f32": np.dtype("<f4"), "f16": np.dtype("<f2"),
                "f64": np.dtype("<f8"), "bf16": np.dtype("<u2")}
_BY_NUMPY = {v: k for k, v in NUMPY_DTYPES.items()}


def _torch_to_numpy(t):
    import torch  # only when a tensor was given

    t = t.detach().cpu().contiguous()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(np.uint16)
    if t.dtype in (torch.float16, torch.float32, torch.float64):
        return t.numpy()
    raise TypeError(f"tensor of dtype {t.dtype}: ulpbench takes float32, float16, "
                    "bfloat16 and float64")


def is_tensor(x):
    mod = type(x).__module__
    return mod.startswith("torch") and hasattr(x, "detach")


def as_array(name, x):
    """Input `name` as a C-order NumPy array in ulpbench's encoding, and its
    dtype name ("f32", "bf16", ...)."""
    if is_tensor(x):
        a = _torch_to_numpy(x)
    elif isinstance(x, np.ndarray):
        a = x
    else:
        raise TypeError(f"input {name!r}: a NumPy array or a PyTorch tensor, not "
                        f"{type(x).__name__} (a file: pass its path as a str)")
    a = np.ascontiguousarray(a)
    dt = _BY_NUMPY.get(a.dtype.newbyteorder("<") if a.dtype.byteorder == ">" else a.dtype)
    if dt is None:
        raise TypeError(f"input {name!r} holds {a.dtype}: ulpbench takes float32, float16, "
                        "float64, and bfloat16 as uint16 bits (or a torch.bfloat16 tensor)")
    return a.astype(NUMPY_DTYPES[dt], copy=False), dt


def _integers(x):
    """x as int32, int64 or uint8 NumPy array (an op's integer input), or
    None when it holds no integers."""
    if hasattr(x, "detach") and hasattr(x, "cpu"):
        if str(x.dtype) not in ("torch.int32", "torch.int64", "torch.uint8"):
            return None   # a float tensor (bfloat16 has no NumPy dtype)
        x = x.detach().cpu().numpy()
    if isinstance(x, np.ndarray) and x.dtype in (np.int32, np.int64, np.uint8):
        return np.ascontiguousarray(x.astype(x.dtype.newbyteorder("<"), copy=False))
    return None


def write_inputs(inputs, dtype, directory):
    """Writes each input into directory as NAME.npy; returns the --input
    arguments and the dtype they share (checked against dtype when given:
    a list of dtypes cannot take arrays, which have one)."""
    args, found = [], None
    for name, x in inputs.items():
        if isinstance(x, (str, os.PathLike)):
            args.append(f"{name}={os.fspath(x)}")
            continue
        ints = _integers(x)
        if ints is not None:   # ids, class indices, masks: not of the dtype
            path = os.path.join(directory, f"{name}.npy")
            np.save(path, ints)
            args.append(f"{name}={path}")
            continue
        a, dt = as_array(name, x)
        if dtype is not None and dt != dtype:
            raise ValueError(f"input {name!r} is {dt} but dtype is {dtype!r}: convert it "
                             f"first, or pass dtype={dt!r}")
        if found is not None and dt != found[1]:
            raise ValueError(f"input {name!r} is {dt} but input {found[0]!r} is {found[1]}: "
                             "every input has the dtype of the run")
        found = found or (name, dt)
        path = os.path.join(directory, f"{name}.npy")
        np.save(path, a)
        args.append(f"{name}={path}")
    return args, (found[1] if found else None)
