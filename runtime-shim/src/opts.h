/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one option parser of every shim command. */
#ifndef SHIM_OPTS_H
#define SHIM_OPTS_H

#include "shim.h"

/* An option: its name, a short alias or NULL, whether it takes a value. */
struct shim_opt {
	const char *name;
	const char *alias;
	bool value;
	int id;
};

/*
 * The option at argv[*i] of command (for messages: "shim", "shim hook"):
 * 1 with *id, and *value for an option that takes one ("--name=value",
 * "--name value", "-a value"; *i is left on the last word used); 0 when
 * argv[*i] is the first operand, or "--" (*i moved past it); -1 with err
 * for an unknown option or a missing value.
 */
int shim_opt_next(const char *command, const struct shim_opt *opts, size_t n,
		  int argc, char *const argv[], int *i, int *id, const char **value,
		  struct shim_err *err);

#endif
