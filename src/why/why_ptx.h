/* why_ptx.h — PTX text as `ulpbench why` reads it: the lines, the source
 * place each instruction comes from (the compiler's line information:
 * `.file N "PATH"` and `.loc FILE LINE COL[, function_name F, inlined_at
 * FILE LINE COL]`, written by nvcc and NVRTC under -lineinfo and by
 * Triton), one instruction's parts, and the alignment of a text compiled
 * with line information with the same kernel compiled without it (the
 * PTX a run ran: its line numbers are the ones `explain` prints).
 *
 * Nothing here runs PTX; the interpreter's parser (src/exec/ptx/) is the
 * judge of what is valid.  Anything this reader does not understand is
 * left as it is: a line that is not an instruction keeps no place. */
#ifndef UB_WHY_PTX_H
#define UB_WHY_PTX_H

#include "ub.h"

/* A place in the source: file index into the text's files (-1: none),
 * line, column; and where it was inlined (at_file -1: not inlined). */
struct ub_loc {
	int file;
	unsigned line, col;
	int at_file;
	unsigned at_line, at_col;
};

enum ub_pline_kind {
	UB_PL_OTHER,   /* blank, comment, directive, label, brace */
	UB_PL_INSN,    /* an instruction (ends with ';') */
	UB_PL_SKIPPED  /* inside a .section block */
};

struct ub_pline {
	uint32_t off, len;     /* in the text, without the newline */
	unsigned char kind;    /* enum ub_pline_kind */
	struct ub_loc loc;     /* instructions: the .loc in force */
	uint32_t plain;        /* instructions: the line of the same
				  instruction in the aligned plain text (0:
				  none) */
};

#define UB_PTX_MAX_FILES 64

struct ub_ptxtext {
	const char *text;      /* not owned */
	uint32_t nlines;
	struct ub_pline *lines; /* [1 .. nlines]; [0] unused */
	int nfiles;
	int file_id[UB_PTX_MAX_FILES];  /* the N of `.file N` */
	char *file[UB_PTX_MAX_FILES];   /* its path (malloc'd) */
	int has_loc;           /* some instruction has a place */
};

/* Reads text (kept, not copied) into *t.  Never fails on what it does
 * not understand; UB_RUNTIME only when out of memory.  Free with
 * ub_ptxtext_free. */
int ub_ptxtext_read(const char *text, struct ub_ptxtext *t, struct ub_error *err);
void ub_ptxtext_free(struct ub_ptxtext *t);

/* The path of file index k (a .loc's file), or NULL. */
const char *ub_ptxtext_file(const struct ub_ptxtext *t, int k);

/* Aligns t (compiled with line information) with plain (the same kernel
 * without it): their instructions must be the same, one for one, in the
 * same order (whitespace aside); then each instruction line of t gets
 * its plain line.  Returns 1 when they align, else 0 (no plain lines
 * set).  UB_RUNTIME (negated: -UB_RUNTIME) when out of memory. */
int ub_ptxtext_align(struct ub_ptxtext *t, const char *plain);

/* One instruction: guard, mnemonic, operands. */
#define UB_PINSN_MAX_OPS 8
struct ub_pinsn {
	int open, close;       /* a '{' before it, a '}' after it on its line
				  (inline assembly: "{mul.f16 %rs5,%rs6,%rs6;") */
	char guard[48];        /* "@%p1", "@!%p2", or "" */
	char mn[64];           /* "fma.rn.f32" */
	int nops;
	char op[UB_PINSN_MAX_OPS][96];
};

/* Parses the instruction of line k of t (or the len bytes at s); 0, or
 * -1 when it is not one instruction this reader can rewrite (several on
 * the line, braces, an operand too long, vector operands). */
int ub_pinsn_parse(const char *s, size_t len, struct ub_pinsn *in);
int ub_pinsn_line(const struct ub_ptxtext *t, uint32_t k, struct ub_pinsn *in);

/* Whether dot-separated part `part` is in mnemonic mn ("rn", "ftz"). */
int ub_mn_has(const char *mn, const char *part);
/* The float type of mnemonic mn (its last part: f32, f64, f16, bf16,
 * f16x2, bf16x2), or NULL. */
const char *ub_mn_ftype(const char *mn);

/* Whether two places of one text are the same. */
int ub_loc_same(const struct ub_loc *a, const struct ub_loc *b);

/* "file.cu:12" (inlined: "file.cu:3 (inlined at :12)") into buf; "" when
 * loc has no file.  The file's last path component only, when base. */
const char *ub_loc_format(const struct ub_ptxtext *t, const struct ub_loc *loc,
			  int base, char *buf, size_t len);

#endif
