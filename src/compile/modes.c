/* modes.c — the compile mode table (declared in modes.h). */
#include "modes.h"
#include "ub.h"

#include <stdio.h>
#include <string.h>

const struct ub_mode_info ub_modes[UB_NMODES] = {
#define X(id, name, opts, nvcc, desc) [id] = {name, opts, nvcc, desc},
	UB_MODES(X)
#undef X
};

int ub_mode_find(const char *name)
{
	for (int i = 0; i < UB_NMODES; i++)
		if (strcmp(ub_modes[i].name, name) == 0)
			return i;
	return -1;
}

const char *ub_mode_nvcc_opts(const char *nvrtc_opts)
{
	for (int i = 0; i < UB_NMODES; i++)
		if (strcmp(ub_modes[i].opts, nvrtc_opts) == 0)
			return ub_modes[i].nvcc;
	return NULL;
}

const char *ub_mode_names(char *buf, unsigned long len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < UB_NMODES && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? ", " : "", ub_modes[i].name);
	return buf;
}

int ub_mode_applies(int m, int dt)
{
	return m != UB_MODE_NATIVE16 || dt == UB_F16 || dt == UB_BF16;
}
