// SPDX-License-Identifier: GPL-2.0-or-later
/* shim COMMAND ...: each command's words go to its own main. */
#include <string.h>

#include "cli.h"
#include "hook.h"
#include "idblock.h"
#include "needs.h"
#include "profile.h"
#include "run.h"
#include "seccomp.h"

static int help_main(int argc, char *const argv[])
{
	(void)argc;
	(void)argv;
	shim_usage(stdout);
	return 0;
}

static int version_main(int argc, char *const argv[])
{
	(void)argc;
	(void)argv;
	printf("shim %s\n", SHIM_VERSION);
	return 0;
}

static const struct {
	const char *name;
	int (*main)(int argc, char *const argv[]);
} commands[] = {
	{ "run", shim_run_main },
	{ "ps", shim_ps_main },
	{ "hook", shim_hook_main },
	{ "seccomp-profile", shim_seccomp_profile_main },
	{ "bpf-needs", shim_bpf_needs_main },
	{ "help", help_main },
	{ "--help", help_main },
	{ "-h", help_main },
	{ "version", version_main },
	{ "--version", version_main },
};

int main(int argc, char *argv[])
{
	struct shim_err err = { 0 };

	shim_profile_launch();
	/* A bare "shim" shows what it can do, as runc does. */
	if (argc < 2)
		return help_main(argc, argv);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		if (strcmp(argv[1], commands[i].name) != 0)
			continue;
		return commands[i].main(argc - 1, argv + 1);
	}
	shim_fail(&err, 0, "unknown command \"%s\" (valid: %s; see shim --help)", argv[1],
		  SHIM_COMMANDS);
	shim_err_print(&err);
	return SHIM_EXIT_ERROR;
}
