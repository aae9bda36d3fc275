/* ptx_ops.h — every fact about the PTX subset the interpreter runs, declared
 * once as X-macros: types, rounding modifiers, compare operators, special
 * registers, and the instruction forms with their meaning.
 *
 * Sections cited are those of the PTX ISA 9.0 manual ("Instruction Set"):
 *   [int]   9.7.1 Integer Arithmetic Instructions
 *   [fp]    9.7.3 Floating-Point Instructions
 *   [cmp]   Comparison and Selection Instructions (setp, selp, slct)
 *   [logic] Logic and Shift Instructions
 *   [data]  Data Movement and Conversion Instructions (mov, ld, st, cvt, cvta)
 *   [ctl]   Control Flow Instructions (bra, ret, exit)
 * Notation: n = operand width in bits, RND(x) = x rounded once with the
 * instruction's rounding mode (.rn when none is given), FTZ = with .ftz,
 * subnormal inputs and results become zero of the same sign. */
#ifndef UB_PTX_OPS_H
#define UB_PTX_OPS_H

/* Types: X(ID, name, bits, kind).  Kinds: B untyped bits, U unsigned,
 * S signed, F floating point, P predicate, H 16-bit float (f16, bf16). */
#define PTX_TYPES(X)                  \
	X(PRED, "pred", 1, P)         \
	X(B8, "b8", 8, B)             \
	X(B16, "b16", 16, B)          \
	X(B32, "b32", 32, B)          \
	X(B64, "b64", 64, B)          \
	X(U8, "u8", 8, U)             \
	X(U16, "u16", 16, U)          \
	X(U32, "u32", 32, U)          \
	X(U64, "u64", 64, U)          \
	X(S8, "s8", 8, S)             \
	X(S16, "s16", 16, S)          \
	X(S32, "s32", 32, S)          \
	X(S64, "s64", 64, S)          \
	X(F16, "f16", 16, H)          \
	X(BF16, "bf16", 16, H)        \
	X(F16X2, "f16x2", 32, H)      \
	X(BF16X2, "bf16x2", 32, H)    \
	X(F32, "f32", 32, F)          \
	X(F64, "f64", 64, F)

/* Rounding modifiers: X(ID, name).  RN..RP round a float result, RNI..RPI
 * round to an integral value (cvt). */
#define PTX_RNDS(X)                                                    \
	X(RN, "rn") X(RZ, "rz") X(RM, "rm") X(RP, "rp")                \
	X(RNI, "rni") X(RZI, "rzi") X(RMI, "rmi") X(RPI, "rpi")

/* setp compare operators [cmp]: X(ID, name).  Integer: eq ne lt le gt ge
 * (signed for .s types), lo ls hi hs (unsigned).  Float: eq..ge are
 * ordered (false if either operand is NaN), equ..geu unordered (true if
 * either is NaN), num = neither NaN, nan = either NaN. */
#define PTX_CMPS(X)                                                     \
	X(EQ, "eq") X(NE, "ne") X(LT, "lt") X(LE, "le") X(GT, "gt")     \
	X(GE, "ge") X(LO, "lo") X(LS, "ls") X(HI, "hi") X(HS, "hs")     \
	X(EQU, "equ") X(NEU, "neu") X(LTU, "ltu") X(LEU, "leu")         \
	X(GTU, "gtu") X(GEU, "geu") X(NUM, "num") X(NAN, "nan")

/* testp operators [fp testp]: X(ID, name). */
#define PTX_TESTPS(X)                                                   \
	X(FINITE, "finite") X(INFINITE, "infinite") X(NUMBER, "number") \
	X(NOTANUMBER, "notanumber") X(NORMAL, "normal")                 \
	X(SUBNORMAL, "subnormal")

/* Special registers, read-only, each given a register slot of its own that
 * the interpreter fills before each thread runs: X(ID, name).  %laneid and
 * %warpid are derived from the linear thread index within the block
 * (warps of 32); the shared memory sizes are the launch's (the static
 * .shared variables, the dynamic bytes). */
#define PTX_SREGS(X)                                                   \
	X(TID_X, "%tid.x") X(TID_Y, "%tid.y") X(TID_Z, "%tid.z")       \
	X(NTID_X, "%ntid.x") X(NTID_Y, "%ntid.y") X(NTID_Z, "%ntid.z") \
	X(CTAID_X, "%ctaid.x") X(CTAID_Y, "%ctaid.y")                  \
	X(CTAID_Z, "%ctaid.z") X(NCTAID_X, "%nctaid.x")                \
	X(NCTAID_Y, "%nctaid.y") X(NCTAID_Z, "%nctaid.z")              \
	X(LANEID, "%laneid") X(WARPID, "%warpid")                      \
	X(DYNAMIC_SMEM, "%dynamic_smem_size")                          \
	X(TOTAL_SMEM, "%total_smem_size")

/* Special registers (chapter 10) that name a value the interpreter knows
 * otherwise: X(name, kind, value), kind A: the same as special register
 * `value` (a cluster of one block: %clusterid is %ctaid); C: the
 * constant `value`, as on an sm_90 GPU (64 warps and 132 multiprocessors,
 * the H100's; every block on the first, in a cluster of one block); L:
 * the lanemask `value` of the thread's own lane (LANEMASK's cmp); T: a
 * clock (CLOCK). */
#define PTX_SREG_ALIASES(X)                                            \
	X("%clusterid.x", A, PTX_SR_CTAID_X)                           \
	X("%clusterid.y", A, PTX_SR_CTAID_Y)                           \
	X("%clusterid.z", A, PTX_SR_CTAID_Z)                           \
	X("%nclusterid.x", A, PTX_SR_NCTAID_X)                         \
	X("%nclusterid.y", A, PTX_SR_NCTAID_Y)                         \
	X("%nclusterid.z", A, PTX_SR_NCTAID_Z)                         \
	X("%cluster_ctaid.x", C, 0) X("%cluster_ctaid.y", C, 0)        \
	X("%cluster_ctaid.z", C, 0) X("%cluster_nctaid.x", C, 1)       \
	X("%cluster_nctaid.y", C, 1) X("%cluster_nctaid.z", C, 1)      \
	X("%cluster_ctarank", C, 0) X("%cluster_nctarank", C, 1)       \
	X("%is_explicit_cluster", C, 0)                                \
	X("%nwarpid", C, 64) X("%nsmid", C, 132) X("%smid", C, 0)      \
	X("%gridid", C, 1)                                             \
	X("%lanemask_eq", L, 0) X("%lanemask_le", L, 1)                \
	X("%lanemask_lt", L, 2) X("%lanemask_ge", L, 3)                \
	X("%lanemask_gt", L, 4)                                        \
	X("%clock", T, 0) X("%clock64", T, 0) X("%globaltimer", T, 0)  \
	X("%globaltimer_lo", T, 0)

/* Instruction forms: X(ID, base, variant, accepted types, operand shape).
 * The parser picks the form whose base name and variant match the
 * mnemonic and whose type mask holds the instruction's (first) type.
 * Variants: _ none, LO HI WIDE (integer mul/mad), L R (shf direction), APPROX FULL (float),
 * PARAM GLOBAL LOCAL GENERIC (state space of ld/st; .const and no space
 * are GENERIC), II IF FI FF (cvt: integer/float destination.source), X2
 * (cvt of two f32 into one f16x2/bf16x2).
 * Types: INT = b/u/s 8-64, BITS = INT + pred, H = f16, bf16, f16x2,
 * bf16x2, ANY = every type.
 * Shapes name the operand layout (see ptx_insn.c). */
#define PTX_OPS(X)                                                          \
	/* --- [int] integer arithmetic; .s/.u/.b 16, 32, 64 bits --- */    \
	X(ADD_I, "add", _, INT, AB)      /* d = a + b mod 2^n */            \
	X(SUB_I, "sub", _, INT, AB)      /* d = a - b mod 2^n */            \
	X(MUL_LO, "mul", LO, INT, AB)    /* d = a * b mod 2^n */            \
	X(MUL_HI, "mul", HI, INT, AB)    /* d = (a * b) >> n, 2n-bit product */ \
	X(MUL_WIDE, "mul", WIDE, INT, WIDE) /* d(2n) = a * b exactly */     \
	X(MAD_LO, "mad", LO, INT, ABC)   /* d = a * b + c mod 2^n */        \
	X(MAD_HI, "mad", HI, INT, ABC)   /* d = ((a * b) >> n) + c mod 2^n */ \
	X(MAD_WIDE, "mad", WIDE, INT, WIDE3) /* d(2n) = a*b + c(2n) mod 2^2n */ \
	/* --- 9.7.2 extended precision (32, 64 bits): CF = CC.CF, the  \
	 * carry (sub: the borrow); add.cc, sub.cc, mad.lo.cc, mad.hi.cc \
	 * are these forms without CF coming in --- */                   \
	X(ADDC, "addc", _, INT, AB)      /* d = a + b + CF; .cc: CF = carry out */ \
	X(SUBC, "subc", _, INT, AB)      /* d = a - (b + CF); .cc: CF = borrow out */ \
	X(MADC_LO, "madc", LO, INT, ABC) /* d = lo(a * b) + c + CF; .cc: carry */ \
	X(MADC_HI, "madc", HI, INT, ABC) /* d = hi(a * b) + c + CF; .cc: carry */ \
	X(DIV_I, "div", _, INT, AB)      /* d = a / b truncated; b = 0: all  \
					    ones (ISA: unspecified); MIN / -1 = MIN */ \
	X(REM_I, "rem", _, INT, AB)      /* d = a - b * (a / b), sign of a;  \
					    b = 0: d = a (ISA: unspecified) */ \
	X(ABS_I, "abs", _, INT, A)       /* d = |a|, abs(MIN) = MIN */      \
	X(NEG_I, "neg", _, INT, A)       /* d = -a mod 2^n */               \
	X(MIN_I, "min", _, INT, AB)      /* d = a < b ? a : b (signedness of type) */ \
	X(MAX_I, "max", _, INT, AB)      /* d = a > b ? a : b */            \
	X(POPC, "popc", _, INT, CNT)     /* d(u32) = number of one bits of a */ \
	X(CLZ, "clz", _, INT, CNT)       /* d(u32) = leading zeros of a; n if a = 0 */ \
	X(BREV, "brev", _, INT, A)       /* d = a with its n bits reversed */ \
	X(BFE, "bfe", _, INT, BFE)       /* d = a[b+c-1 .. b], zero/sign   \
					    extended (b, c: low 8 bits) */  \
	X(BFI, "bfi", _, INT, BFI)       /* d = b with bits [c+d-1 .. c]    \
					    replaced by a's low bits */     \
	/* --- [logic] bitwise on .b/.u/.s and .pred (1 bit) --- */         \
	X(AND, "and", _, BITS, AB)       /* d = a & b */                    \
	X(OR, "or", _, BITS, AB)         /* d = a | b */                    \
	X(XOR, "xor", _, BITS, AB)       /* d = a ^ b */                    \
	X(NOT, "not", _, BITS, A)        /* d = ~a */                       \
	X(CNOT, "cnot", _, BITS, A)      /* d = a == 0 ? 1 : 0 */           \
	X(SHL, "shl", _, INT, SHIFT)     /* d = a << b(u32); b >= n gives 0 */ \
	X(SHR, "shr", _, INT, SHIFT)     /* d = a >> b(u32), sign fill for .s; \
					    b >= n is clamped to n */       \
	X(SHF_L, "shf", L, INT, ABC)     /* shf.l.{wrap,clamp}.b32: d = upper \
					    32 bits of {b, a} << n, n = c & \
					    31 (.wrap) or min(c, 32) (.clamp) */ \
	X(SHF_R, "shf", R, INT, ABC)     /* shf.r: d = lower 32 bits of    \
					    {b, a} >> n */                  \
	/* --- [cmp] comparison and selection --- */                        \
	X(SETP_I, "setp", _, INT, SETP)  /* p = a CMP b [BOOL c]; q = !(a CMP b) [BOOL c] */ \
	X(SETP_F32, "setp", _, F32, SETP) /* as SETP_I; ordered/unordered compares, FTZ */ \
	X(SETP_F64, "setp", _, F64, SETP) /* as SETP_F32 for f64 */          \
	X(SET, "set", _, ANY, SET)       /* set.CMP.dtype.stype d, a, b:   \
					    d = a CMP b ? (float dtype: 1.0; \
					    integer: all ones) : 0; x2 types \
					    per 16-bit half; FTZ */          \
	X(SELP, "selp", _, ANY, SELP)    /* d = c ? a : b (c predicate) */  \
	X(SLCT, "slct", _, ANY, SLCT)    /* d = c >= 0 ? a : b (c .s32 or  \
					    .f32; f32 c: -0 >= 0, NaN: b) */ \
	/* --- [fp] f32 and f64; RND = .rn/.rz/.rm/.rp --- */               \
	X(ADD_F32, "add", _, F32, AB)    /* d = RND(a + b); FTZ, .sat.  No  \
					    modifier: may be fused by ptxas */ \
	X(ADD_F64, "add", _, F64, AB)    /* d = RND(a + b) */               \
	X(SUB_F32, "sub", _, F32, AB)    /* d = RND(a - b); FTZ, .sat */    \
	X(SUB_F64, "sub", _, F64, AB)    /* d = RND(a - b) */               \
	X(MUL_F32, "mul", _, F32, AB)    /* d = RND(a * b); FTZ, .sat */    \
	X(MUL_F64, "mul", _, F64, AB)    /* d = RND(a * b) */               \
	X(FMA_F32, "fma", _, F32, ABC)   /* d = RND(a * b + c), one rounding; \
					    also mad.f32 (= fma.rn on sm_20+) */ \
	X(FMA_F64, "fma", _, F64, ABC)   /* d = RND(a * b + c); also mad.f64 */ \
	X(DIV_F32, "div", _, F32, AB)    /* d = RND(a / b), IEEE; FTZ */    \
	X(DIV_F64, "div", _, F64, AB)    /* d = RND(a / b) */               \
	X(DIV_APPROX_F32, "div", APPROX, F32, AB) /* model a * rcp(b), each \
					    .rn; 2^126 < |b| < 2^128: 0 */  \
	X(DIV_FULL_F32, "div", FULL, F32, AB) /* model RN(a / b) (ISA: 2 ulp) */ \
	X(RCP_F32, "rcp", _, F32, A)     /* d = RND(1 / a); FTZ */          \
	X(RCP_F64, "rcp", _, F64, A)     /* d = RND(1 / a) */               \
	X(RCP_APPROX_F32, "rcp", APPROX, F32, A) /* model RN(1/a) (ISA: 1 ulp) */ \
	X(RCP_APPROX_F64, "rcp", APPROX, F64, A) /* .ftz required; model   \
					    RN(1/a), FTZ (the GPU starts from \
					    the upper 32 bits: MUFU.RCP64H) */ \
	X(SQRT_F32, "sqrt", _, F32, A)   /* d = RND(sqrt(a)); FTZ */        \
	X(SQRT_F64, "sqrt", _, F64, A)   /* d = RND(sqrt(a)) */             \
	X(SQRT_APPROX_F32, "sqrt", APPROX, F32, A) /* model RN(sqrt a) (2^-23 rel) */ \
	X(RSQRT_APPROX_F32, "rsqrt", APPROX, F32, A) /* model 1/sqrt(a) (2^-22.9 rel) */ \
	X(RSQRT_APPROX_F64, "rsqrt", APPROX, F64, A) /* model RN(1/sqrt a); \
					    FTZ (MUFU.RSQ64H) */             \
	X(EX2_APPROX_F32, "ex2", APPROX, F32, A) /* model 2^a (ISA: 2 ulp) */ \
	X(LG2_APPROX_F32, "lg2", APPROX, F32, A) /* model log2(a) (2^-22) */ \
	X(SIN_APPROX_F32, "sin", APPROX, F32, A) /* model sin(a) (2^-20.5 abs) */ \
	X(COS_APPROX_F32, "cos", APPROX, F32, A) /* model cos(a) (2^-20.5 abs) */ \
	X(TANH_APPROX_F32, "tanh", APPROX, F32, A) /* model tanh(a) (2^-11 rel) */ \
	X(EX2_APPROX_H, "ex2", APPROX, H, A) /* f16, bf16 (.ftz), x2: the  \
					    measured sm_90 table, else 2^a rounded */ \
	X(TANH_APPROX_H, "tanh", APPROX, H, A) /* likewise tanh(a) */       \
	X(NEG_F32, "neg", _, F32, A)     /* d = -a; FTZ; NaN -> canonical */ \
	X(NEG_F64, "neg", _, F64, A)     /* d = -a */                       \
	X(ABS_F32, "abs", _, F32, A)     /* d = |a|; FTZ; NaN -> canonical */ \
	X(ABS_F64, "abs", _, F64, A)     /* d = |a| */                      \
	X(MIN_F32, "min", _, F32, AB)    /* d = min(a, b): one NaN -> other \
					    operand, -0 < +0; .NaN: any NaN -> NaN */ \
	X(MIN_F64, "min", _, F64, AB)    /* as MIN_F32 */                   \
	X(MAX_F32, "max", _, F32, AB)    /* d = max(a, b), as min */        \
	X(MAX_F64, "max", _, F64, AB)    /* as MAX_F32 */                   \
	X(COPYSIGN_F32, "copysign", _, F32, AB) /* d = |b| with a's sign (bits) */ \
	X(COPYSIGN_F64, "copysign", _, F64, AB) /* as COPYSIGN_F32 */       \
	X(TESTP_F32, "testp", _, F32, TESTP) /* p = a is finite/infinite/... */ \
	X(TESTP_F64, "testp", _, F64, TESTP) /* as TESTP_F32 */             \
	/* --- 9.7.4 half precision: f16, bf16, and x2 (per 16-bit half); \
	 * exact a*b+c rounded once (ptx_half.c) --- */                     \
	X(ADD_H, "add", _, H, AB)        /* d = RN(a + b); FTZ (f16), .sat. \
					    No modifier: may be fused (HFMA2) */ \
	X(SUB_H, "sub", _, H, AB)        /* d = RN(a - b) */                \
	X(MUL_H, "mul", _, H, AB)        /* d = RN(a * b) */                \
	X(FMA_H, "fma", _, H, ABC)       /* d = RN(a * b + c), one rounding */ \
	X(NEG_H, "neg", _, H, A)         /* d = -a */                       \
	X(ABS_H, "abs", _, H, A)         /* d = |a| */                      \
	X(MIN_H, "min", _, H, AB)        /* as MIN_F32 */                   \
	X(MAX_H, "max", _, H, AB)        /* as MAX_F32 */                   \
	X(SETP_H, "setp", _, H, SETP)    /* as SETP_F32 (scalar f16, bf16) */ \
	/* --- [data] moves, conversions, memory --- */                     \
	X(MOV, "mov", _, ANY, MOV)       /* d = a (register, immediate,     \
					    special register, symbol address); \
					    also cvta (identity on host addresses) */ \
	X(MOV_PACK, "mov", PACK, ANY, PACK) /* d = {a, b[, c, d]}, a in low bits */ \
	X(MOV_UNPACK, "mov", UNPACK, ANY, UNPACK) /* {d0, d1[, ..]} = a */  \
	X(CVT_II, "cvt", II, ANY, CVT)   /* integer <- integer: extend by the \
					    source's sign, truncate (.sat: clamp) */ \
	X(CVT_IF, "cvt", IF, ANY, CVT)   /* integer <- float: round with \
					    .rni/.rzi/.rmi/.rpi, clamp, NaN -> 0 */ \
	X(CVT_FI, "cvt", FI, ANY, CVT)   /* float <- integer: RND */        \
	X(CVT_FF, "cvt", FF, ANY, CVT)   /* float <- float: RND when narrowing; \
					    .rni.. to integral; FTZ, .sat */ \
	X(CVT_X2, "cvt", X2, H, CVT2)    /* cvt.{rn,rz}.{f16x2,bf16x2}.f32 \
					    d, a, b: d = {hi: RND(a), lo:  \
					    RND(b)}, each rounded once */   \
	X(LD_PARAM, "ld", PARAM, ANY, LD)   /* d = kernel parameter bytes */ \
	X(LD_GLOBAL, "ld", GLOBAL, ANY, LD) /* d = [a], checked against the \
					       launch's buffers and module globals */ \
	X(LD_LOCAL, "ld", LOCAL, ANY, LD)   /* d = [a] in the thread's local memory */ \
	X(LD_GENERIC, "ld", GENERIC, ANY, LD) /* d = [a] in any of the above */ \
	X(ST_GLOBAL, "st", GLOBAL, ANY, ST) /* [a] = b, writable buffers only */ \
	X(ST_LOCAL, "st", LOCAL, ANY, ST)   /* [a] = b in local memory */   \
	X(ST_GENERIC, "st", GENERIC, ANY, ST) /* [a] = b, global or local */ \
	X(ST_PARAM, "st", PARAM, ANY, ST)   /* [a] = b: a call argument, or \
					       a .func's return value */    \
	X(LD_SHARED, "ld", SHARED, ANY, LD) /* d = [a] in the block's .shared \
					       memory (a: an offset into it) */ \
	X(ST_SHARED, "st", SHARED, ANY, ST) /* [a] = b in .shared memory */ \
	X(CVTA_SHARED, "cvta", SHARED, ANY, MOV) /* d = generic address of \
					    the .shared offset a */          \
	X(CVTA_TO_SHARED, "cvta", TOSHARED, ANY, MOV) /* d = .shared offset \
					    of the generic address a */      \
	X(CREATEPOLICY, "createpolicy", _, ANY, POLICY) /* d = an L2 cache \
					    policy (9.7.9.18): opaque, 0 here; \
					    only .L2::cache_hint reads it */ \
	/* --- [ctl] control flow --- */                                    \
	X(BRA, "bra", _, ANY, BRA)       /* pc = label (.uni ignored) */    \
	X(CALL, "call", _, ANY, CALL)    /* call (r), f, (a, ..): copy the  \
					    args into f's .param, run f to  \
					    ret, copy its return value to r */ \
	/* --- block and warp level (ptx_block.c, ptx_warp.c); decoded by \
	 * ptx_insn_block.c, sub-operation in cmp (enum ptx_bop) --- */     \
	X(BAR, "bar", BLOCK, ANY, BAR)   /* bar.sync / barrier.sync a: wait \
					    until every thread of the block \
					    reaches this barrier */          \
	X(BAR_WARP, "bar", WARP, ANY, BAR) /* bar.warp.sync mask */         \
	X(SHFL, "shfl", BLOCK, ANY, SHFL) /* shfl.sync.MODE.b32 d[|p], a, b, \
					    c, mask (9.7.9.6) */             \
	X(VOTE, "vote", BLOCK, ANY, VOTE) /* vote.sync.{all,any,uni}.pred, \
					    .ballot.b32 d, [!]a, mask */     \
	X(MATCH, "match", BLOCK, ANY, MATCH) /* match.{any,all}.sync.b32/b64 \
					    d[|p], a, mask */               \
	X(REDUX, "redux", BLOCK, ANY, REDUX) /* redux.sync.OP.type d, a, mask */ \
	X(ACTIVEMASK, "activemask", BLOCK, ANY, ACTMASK) /* d = lanes running \
					    this instruction together */    \
	X(ELECT, "elect", BLOCK, ANY, ELECT) /* elect.sync d|p, mask: the \
					    lowest lane of mask */          \
	X(ATOM, "atom", BLOCK, ANY, ATOM) /* atom.SPACE.OP.type d, [a], b[, c]: \
					    d = old [a]; [a] = OP(old, b[, c]) */ \
	X(RED, "red", BLOCK, ANY, ATOM)  /* red: atom without d */          \
	X(FENCE, "membar", BLOCK, ANY, NONE) /* membar, fence: no effect \
					    (every access is in order here) */ \
	/* --- tensor cores (PTX ISA 9.0, 9.7.14 warp-level matrix      \
	 * instructions, 9.7.15 wgmma; docs/tensor-cores.md): every lane  \
	 * of the warp together; decoded by ptx_insn_mma.c, run by        \
	 * ptx_ldmatrix.c, ptx_mma_exec.c, ptx_wgmma.c.  Shape MMA: the    \
	 * operands in a list (ptx_mma.h) --- */                           \
	X(LDMATRIX, "ldmatrix", BLOCK, ANY, LD) /* {d0..}: 1, 2 or 4 8x8 \
					    b16 matrices, each row at the \
					    .shared address lanes 8i..8i+7 \
					    give, as mma fragments (.trans: \
					    transposed) */                  \
	X(STMATRIX, "stmatrix", BLOCK, ANY, ST) /* the inverse: fragments \
					    to the rows lanes address */    \
	X(MOVMATRIX, "movmatrix", BLOCK, ANY, A) /* d = the fragment of the \
					    transposed 8x8 b16 matrix of a */ \
	X(MMA, "mma", BLOCK, ANY, MMA)   /* D = A * B + C, the fragments of \
					    the ISA; each D element through \
					    the MMA unit's model (mma_unit.h) */ \
	X(WMMA_LOAD, "wmma", BLOCK, ANY, MMA) /* a fragment from memory */ \
	X(WMMA_STORE, "wmma", BLOCK, ANY, MMA) /* a fragment to memory */ \
	X(WMMA_MMA, "wmma", BLOCK, ANY, MMA) /* D = A * B + C, as MMA */   \
	X(WGMMA, "wgmma", BLOCK, ANY, MMA) /* wgmma.mma_async: D = A * B + \
					    (scale-d ? D : 0), A and B from \
					    .shared descriptors (A or from \
					    registers); run at issue */     \
	X(WGMMA_SYNC, "wgmma", BLOCK, ANY, NONE) /* fence, commit_group, \
					    wait_group: no effect (the mma \
					    ran at issue) */                \
	/* --- the ptxas fusion model (ptx_fuse.c); never parsed --- */    \
	X(HOLD, "(hold)", _, ANY, AB)    /* a fused mul: keep a, b in the  \
					    slots src[2], src[3] */         \
	X(FUSED, "(fused)", _, ANY, ABC) /* d = RN(+-a * b +- c): an add or \
					    sub fused with a HOLD; FTZ, .sat */ \
	X(RET, "ret", _, ANY, NONE)      /* end of the function (the thread \
					    when it is the kernel) */       \
	X(EXIT, "exit", _, ANY, NONE)    /* end of the thread */           \
	/* --- decoded by ptx_insn_more.c; sections of the PTX ISA 9.0 --- */ \
	X(PRMT, "prmt", BLOCK, ANY, ABC) /* 9.7.9.7 prmt.b32{.mode} d, a, b, \
					    c: the bytes of {b, a} (b7..b0) \
					    that c selects; cmp: the mode (0 \
					    generic, 1 f4e, 2 b4e, 3 rc8, 4 \
					    ecl, 5 ecr, 6 rc16) */          \
	X(LOP3, "lop3", BLOCK, ANY, ABC) /* 9.7.8.6 lop3.b32 d, a, b, c,    \
					    immLut: bit i of d = bit (a_i b_i \
					    c_i, a the high one) of immLut (aux) */ \
	X(LOP3_P, "lop3", BLOCK, ANY, AB) /* lop3.{or,and}'s p = (a != 0) OP \
					    b, a the d just computed, b the \
					    predicate q (cmp: 1 or, 2 and) */ \
	X(TRAP, "trap", BLOCK, ANY, NONE) /* Miscellaneous Instructions:   \
					    trap: the thread stops, an error \
					    (the GPU aborts the kernel) */  \
	X(NANOSLEEP, "nanosleep", BLOCK, ANY, A) /* nanosleep.u32 a (the \
					    same chapter): no effect (a delay \
					    changes no value) */             \
	X(ASSERTFAIL, "(assertfail)", BLOCK, ANY, BUILTIN) /* call of     \
					    __assertfail(message, file, line, \
					    function, size): a failed device \
					    assert; src[0..3]: the addresses of \
					    the first four arguments */      \
	X(PRINTF, "(vprintf)", BLOCK, ANY, BUILTIN) /* call (r), vprintf, \
					    (format, args): device printf \
					    (ptx_builtin.c); src[0], src[1]: \
					    the arguments' addresses, src[2] \
					    r's (the sink: none) */          \
	X(LANEMASK, "(lanemask)", BLOCK, ANY, A) /* mov d, %lanemask_OP \
					    (chapter 10, special registers): \
					    d = the lanes eq, le, lt, ge, gt \
					    (cmp 0..4) the thread's own lane a */ \
	X(CP_ASYNC, "cp", BLOCK, ANY, CPASYNC) /* 9.7.9 cp.async.{ca,cg}       \
					    .shared.global [d], [s], size{, \
					    src-size | ignore-src}: queued, \
					    done at a wait (ptx_async.c) */  \
	X(CP_COMMIT, "cp", BLOCK, ANY, NONE) /* cp.async.commit_group: the \
					    thread's queued copies are a group */ \
	X(CP_WAIT, "cp", BLOCK, ANY, NONE)  /* cp.async.wait_group N (off), \
					    wait_all (cmp 1): every group but \
					    the newest N is done */         \
	X(MBARRIER, "mbarrier", BLOCK, ANY, MBAR) /* 9.7.13 mbarrier.OP      \
					    (cmp): init, arrive, arrive_drop, \
					    test_wait, try_wait (.parity), \
					    inval, pending_count (ptx_async.c) */ \
	X(CLOCK, "(clock)", BLOCK, ANY, NONE) /* mov d, %clock, %clock64,  \
					    %globaltimer (chapter 10): the \
					    instructions the launch ran so far, \
					    a count that only grows */

#endif
