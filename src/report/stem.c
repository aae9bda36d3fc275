/* stem.c — a name as a file name (outfile.h's ub_file_stem): --dump's
 * files are named after ops and inputs, and an FPCore core's name is any
 * string, "FILE#K" or "Rump's example (1988)" or "a/b".  Every byte but
 * a letter, a digit, '.', '-', '_' and '+' becomes '_' (no '/', no
 * space, nothing a shell expands), a leading '.' too (no hidden file),
 * and a name longer than UB_STEM_MAX bytes keeps its first bytes and
 * ends in '-' and 16 hex digits of its digest (hash.h), so that two long
 * names that differ past the cut stay apart. */
#include "outfile.h"
#include "hash.h"

#include <stdio.h>
#include <string.h>

static int plain(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_' || c == '+';
}

void ub_file_stem(const char *name, char out[UB_STEM_MAX + 1])
{
	size_t n = strlen(name), keep = n <= UB_STEM_MAX ? n : UB_STEM_MAX - 17;
	for (size_t i = 0; i < keep; i++)
		out[i] = plain((unsigned char)name[i]) && !(i == 0 && name[i] == '.')
			 ? name[i] : '_';
	out[keep] = '\0';
	if (keep == n)
		return;
	uint64_t h[2] = UB_HASH0;
	char hex[33];
	ub_hash_str(h, name);
	ub_hash_hex(h, hex);
	snprintf(out + keep, 18, "-%.16s", hex);
}
