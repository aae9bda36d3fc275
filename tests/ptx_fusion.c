/* ptx_fusion.c — helper of tests/ptxas_fusion.test.
 *
 *   ptx_fusion predict FILE.ptx    prints how many add/sub instructions the
 *                                  interpreter's ptxas model fuses with a mul
 *   ptx_fusion same A.cubin B.cubin
 *                                  exit 0 when every .text.* section (the
 *                                  machine code of each function) has the
 *                                  same bytes in both ELF files, 1 when
 *                                  not, 2 on error
 * The cubins come from ptxas --fmad=true and --fmad=false: the only other
 * differences between them are in notes that record the options. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, k;
	if (!f)
		return NULL;
	do {
		if (n + 65536 > cap) {
			char *nb = realloc(buf, cap = 2 * cap + 65536);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		k = fread(buf + n, 1, cap - n - 1, f);
		n += k;
	} while (k > 0);
	fclose(f);
	buf[n] = 0;
	*len = n;
	return buf;
}

/* Section i's header, or NULL when outside the file. */
static const Elf64_Shdr *shdr(const char *e, size_t len, int i)
{
	const Elf64_Ehdr *h = (const Elf64_Ehdr *)e;
	size_t off = h->e_shoff + (size_t)i * h->e_shentsize;
	return off + sizeof(Elf64_Shdr) <= len ? (const Elf64_Shdr *)(e + off) : NULL;
}

static const char *sname(const char *e, size_t len, const Elf64_Shdr *s)
{
	const Elf64_Ehdr *h = (const Elf64_Ehdr *)e;
	const Elf64_Shdr *str = shdr(e, len, h->e_shstrndx);
	if (!str || str->sh_offset + s->sh_name >= len)
		return "";
	return e + str->sh_offset + s->sh_name;
}

/* The contents of section `name` in ELF e; NULL when absent. */
static const char *section(const char *e, size_t len, const char *name, size_t *n)
{
	const Elf64_Ehdr *h = (const Elf64_Ehdr *)e;
	for (int i = 0; i < h->e_shnum; i++) {
		const Elf64_Shdr *s = shdr(e, len, i);
		if (s && !strcmp(sname(e, len, s), name) &&
		    s->sh_offset + s->sh_size <= len) {
			*n = s->sh_size;
			return e + s->sh_offset;
		}
	}
	return NULL;
}

static int is_elf64(const char *e, size_t len)
{
	return len >= sizeof(Elf64_Ehdr) && !memcmp(e, ELFMAG, SELFMAG) &&
	       e[EI_CLASS] == ELFCLASS64;
}

static int same(const char *pa, const char *pb)
{
	size_t la, lb;
	char *a = slurp(pa, &la), *b = slurp(pb, &lb);
	int rc = 0, ntext = 0;
	if (!a || !b || !is_elf64(a, la) || !is_elf64(b, lb)) {
		fprintf(stderr, "ptx_fusion: %s, %s: not two ELF64 files\n", pa, pb);
		rc = 2;
	}
	const Elf64_Ehdr *h = rc ? NULL : (const Elf64_Ehdr *)a;
	for (int i = 0; h && i < h->e_shnum && !rc; i++) {
		const Elf64_Shdr *s = shdr(a, la, i);
		const char *name = s ? sname(a, la, s) : "";
		size_t na, nb;
		if (strncmp(name, ".text.", 6))
			continue;
		ntext++;
		const char *x = section(a, la, name, &na), *y = section(b, lb, name, &nb);
		if (!x || !y || na != nb || memcmp(x, y, na))
			rc = 1;
	}
	if (!rc && !ntext) {
		fprintf(stderr, "ptx_fusion: %s: no .text sections\n", pa);
		rc = 2;
	}
	free(a);
	free(b);
	return rc;
}

static int predict(const char *path)
{
	size_t len;
	char *text = slurp(path, &len);
	struct ptx_module *m;
	struct ub_error err;
	if (!text || ptx_parse(text, &m, &err)) {
		fprintf(stderr, "ptx_fusion: %s: %s\n", path, text ? err.msg : "cannot read");
		free(text);
		return 2;
	}
	printf("%d\n", ptx_fusions(m));
	ptx_free(m);
	free(text);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "predict"))
		return predict(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "same"))
		return same(argv[2], argv[3]);
	fprintf(stderr, "usage: ptx_fusion predict FILE.ptx | same A.cubin B.cubin\n");
	return 2;
}
