/* ptx_mma_frag.c — where each element of an mma.sync fragment sits (PTX
 * ISA 9.0, 9.7.14.5.x "Matrix Fragments for mma.m16n8k4 / m16n8k8 /
 * m16n8k16 / m16n8k32 with floating point type" and "for mma.m8n8k4 with
 * .f64 floating point type").  With groupID g = %laneid >> 2 and
 * threadID_in_group t = %laneid % 4, and e elements of the format in one
 * 32-bit register (f16, bf16: 2; e4m3, e5m2: 4; tf32: 1), element j of
 * register r of lane l is:
 *
 *   A (m16 x k, .row): row g + 8 * (r & 1), col 4e * (r >> 1) + e*t + j
 *     (m16n8k16 .f16: a0,a1 (g, 2t..) a2,a3 (g+8, 2t..) a4,a5 (g, 2t+8..)
 *     a6,a7 (g+8, 2t+8..), as the ISA's table; m16n8k8 .tf32: a0 (g, t),
 *     a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4))
 *   B (k x 8, .col): row 4e * r + e*t + j, col g
 *   C, D (16 x 8): element i = e*r + j (f32: e = 1, f16: 2) at row
 *     g + 8 * (i >> 1), col 2t + (i & 1)
 *   m8n8k4 .f64: A (g, t), B (t, g), C element i at (g, 2t + i). */
#include "ptx_mma.h"

static int per_reg(int fmt)
{
	int b = ptx_mma_fmt_bits(fmt);
	return b >= 32 ? 1 : 32 / b;
}

void ptx_mma_frag_a(int shape, int fmt, int l, int r, int j, int *row, int *col)
{
	int g = l >> 2, t = l & 3, e = per_reg(fmt);
	if (shape == PTX_MS_M8N8K4) {
		*row = g, *col = t;
		return;
	}
	*row = g + 8 * (r & 1);
	*col = 4 * e * (r >> 1) + e * t + j;
}

void ptx_mma_frag_b(int shape, int fmt, int l, int r, int j, int *row, int *col)
{
	int g = l >> 2, t = l & 3, e = per_reg(fmt);
	if (shape == PTX_MS_M8N8K4) {
		*row = t, *col = g;
		return;
	}
	*row = 4 * e * r + e * t + j;
	*col = g;
}

void ptx_mma_frag_c(int shape, int fmt, int l, int r, int j, int *row, int *col)
{
	int g = l >> 2, t = l & 3, i = per_reg(fmt) * r + j;
	if (shape == PTX_MS_M8N8K4) {
		*row = g, *col = 2 * t + i;
		return;
	}
	*row = g + 8 * (i >> 1);
	*col = 2 * t + (i & 1);
}
