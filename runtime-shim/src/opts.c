// SPDX-License-Identifier: GPL-2.0-or-later
/* Option parsing shared by the shim's commands (opts.h). */
#include <string.h>

#include "opts.h"

/* argv[*i] is name, name=value or (when it takes one) name value. */
static int match(const struct shim_opt *o, const char *name, int argc, char *const argv[],
		 int *i, const char **value, struct shim_err *err)
{
	const char *arg = argv[*i];
	size_t len = strlen(name);

	if (strncmp(arg, name, len) != 0)
		return 0;
	if (!o->value)
		return arg[len] == '\0';
	if (arg[len] == '=' && name[1] == '-') {
		*value = arg + len + 1;
		return 1;
	}
	if (arg[len] != '\0')
		return 0;
	if (*i + 1 >= argc)
		return shim_fail(err, 0, "option %s needs a value", name);
	*value = argv[++*i];
	return 1;
}

int shim_opt_next(const char *command, const struct shim_opt *opts, size_t n,
		  int argc, char *const argv[], int *i, int *id, const char **value,
		  struct shim_err *err)
{
	const char *arg = argv[*i];

	*value = NULL;
	if (strcmp(arg, "--") == 0) {
		*i += 1;
		return 0;
	}
	if (arg[0] != '-' || arg[1] == '\0')
		return 0;
	for (size_t k = 0; k < n; k++) {
		int r = match(&opts[k], opts[k].name, argc, argv, i, value, err);

		if (!r && opts[k].alias)
			r = match(&opts[k], opts[k].alias, argc, argv, i, value, err);
		if (r < 0)
			return -1;
		if (r) {
			*id = opts[k].id;
			return 1;
		}
	}
	return shim_fail(err, 0, "unknown option \"%s\" (see %s --help)", arg, command);
}
