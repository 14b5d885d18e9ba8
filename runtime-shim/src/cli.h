/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SHIM_CLI_H
#define SHIM_CLI_H

#include "shim.h"

/*
 * Parse "run [OPTIONS] --rootfs DIR [--] CMD [ARGS...]" (argv[0] is "run").
 * argv is kept: the config points into it.  Returns 0 or -1 with err set.
 */
int shim_parse_run(int argc, char *const argv[], struct shim_config *cfg,
		   struct shim_err *err);
void shim_usage(FILE *out);
/* --userns auto or auto:size=N: the IDs of the container's block. */
int shim_parse_userns(const char *v, uint32_t *size, struct shim_err *err);
/* Every command of the shim, for messages: main.c dispatches each. */
#define SHIM_COMMANDS "run, ps, hook, seccomp-profile, bpf-needs, help, version"

#endif
