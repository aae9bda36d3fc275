"""Triton kernels of atan's backward, din = dout / (x*x + 1), for
tests/triton.test and docs/triton.md: the same math written the ways a
Triton user writes it.

  atan_bwd_div       `/`: Triton's f32 division is div.full.f32, an
                     approximate instruction (2 ulp in the PTX ISA)
  atan_bwd_div_rn    tl.math.div_rn: IEEE division, rounded to nearest
  atan_bwd_half      bf16 or f16 tensors, math in float, one rounding at
                     the end to the output's type (as torch.compile's
                     Inductor writes bf16 and f16 kernels)
  atan_bwd_loop      tl.math.div_rn in a loop over n (for --grid N)
  atan_bwd_bf16_eager bf16 tensors rounded to bf16 after every step, as
                     PyTorch eager's separate kernels round

Under enable_fp_fusion (ulpbench mode fma) x*x + 1 is one fma.rn.f32;
without it (mode nofma) mul.rn.f32 and add.rn.f32 round on their own, as
PyTorch's x*x and +1 kernels do.
"""
import triton
import triton.language as tl


@triton.jit
def atan_bwd_div(x_ptr, g_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    g = tl.load(g_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, g / (x * x + 1), mask=mask)


@triton.jit
def atan_bwd_div_rn(x_ptr, g_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    g = tl.load(g_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.math.div_rn(g, x * x + 1), mask=mask)


@triton.jit
def atan_bwd_half(x_ptr, g_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    g = tl.load(g_ptr + offs, mask=mask).to(tl.float32)
    y = tl.math.div_rn(g, x * x + 1)
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def atan_bwd_bf16_eager(x_ptr, g_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    g = tl.load(g_ptr + offs, mask=mask).to(tl.float32)
    s = (x * x).to(tl.bfloat16).to(tl.float32)
    t = (s + 1).to(tl.bfloat16).to(tl.float32)
    tl.store(out_ptr + offs, tl.math.div_rn(g, t).to(tl.bfloat16), mask=mask)


@triton.jit
def atan_bwd_loop(x_ptr, g_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """tl.math.div_rn over n in a loop: any number of programs (--grid N)
    covers every element."""
    step = tl.num_programs(0) * BLOCK
    for start in range(tl.program_id(0) * BLOCK, n, step):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask)
        g = tl.load(g_ptr + offs, mask=mask)
        tl.store(out_ptr + offs, tl.math.div_rn(g, x * x + 1), mask=mask)
