"""A pointwise kernel in the style torch.compile's Inductor writes for
torch.nn.functional.gelu(x) (the exact, erf form), written by hand for
docs/triton.md's worked example and tests/triton.test: the element count is
xnumel, the block XBLOCK, the mask xmask; constants are Python literals or
tl.full, loads are masked, and erf is a libdevice call that Triton links
into the PTX.  Inductor computes bf16 and f16 tensors in float and rounds
once when it stores; so does this kernel (.to(tl.float32), then the store
converts to the output's type).

    y = (x * 0.5) * (erf(x * 0.7071067811865476) + 1)
"""
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def triton_poi_gelu_0(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask, other=0.0).to(tl.float32)
    tmp1 = 0.5
    tmp2 = tmp0 * tmp1
    tmp3 = 0.7071067811865476
    tmp4 = tmp0 * tmp3
    tmp5 = libdevice.erf(tmp4)
    tmp6 = tl.full([XBLOCK], 1.0, tl.float32)
    tmp7 = tmp5 + tmp6
    tmp8 = tmp2 * tmp7
    tl.store(out_ptr0 + (x0), tmp8, xmask)
