// SPDX-License-Identifier: GPL-2.0-or-later
/* shim COMMAND ...: each command's words go to its own main. */
#include <string.h>

#include "cli.h"
#include "hook.h"
#include "idblock.h"
#include "needs.h"
#include "run.h"
#include "seccomp.h"
#include "selfclone.h"

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
	/* The container's init must not be the host's shim file (selfclone.c). */
	bool sealed;
} commands[] = {
	{ "run", shim_run_main, true },
	{ "ps", shim_ps_main, false },
	{ "hook", shim_hook_main, false },
	{ "seccomp-profile", shim_seccomp_profile_main, false },
	{ "bpf-needs", shim_bpf_needs_main, false },
	{ "help", help_main, false },
	{ "--help", help_main, false },
	{ "-h", help_main, false },
	{ "version", version_main, false },
	{ "--version", version_main, false },
};

int main(int argc, char *argv[])
{
	struct shim_err err = { 0 };

	/* A bare "shim" shows what it can do, as runc does. */
	if (argc < 2)
		return help_main(argc, argv);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		if (strcmp(argv[1], commands[i].name) != 0)
			continue;
		if (commands[i].sealed && shim_reexec_sealed(argv, &err)) {
			shim_err_print(&err);
			return SHIM_EXIT_ERROR;
		}
		return commands[i].main(argc - 1, argv + 1);
	}
	shim_fail(&err, 0, "unknown command \"%s\" (valid: %s; see shim --help)", argv[1],
		  SHIM_COMMANDS);
	shim_err_print(&err);
	return SHIM_EXIT_ERROR;
}
