/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SHIM_CLI_H
#define SHIM_CLI_H

#include "shim.h"

/*
 * Parse "shim [--help|--version] run [OPTIONS] --rootfs DIR [--] CMD [ARGS...]".
 * argv is kept: the config points into it.  Returns 0 or -1 with err set.
 */
int shim_parse_args(int argc, char *const argv[], struct shim_config *cfg,
		    struct shim_err *err);
void shim_usage(FILE *out);

/* "inside:outside:count" */
int shim_parse_idmap(const char *s, struct shim_idmap *map,
		     struct shim_err *err);
/* Render a map list as /proc/PID/uid_map content. */
int shim_format_idmaps(const struct shim_idmaps *maps, char *buf, size_t len);

#endif
