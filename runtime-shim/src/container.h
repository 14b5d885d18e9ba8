/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SHIM_CONTAINER_H
#define SHIM_CONTAINER_H

#include <signal.h>

#include "seccomp.h"
#include "shim.h"

/* What the container's init needs; prepared by the shim before clone. */
struct shim_container {
	const struct shim_config *cfg;
	const char *rootfs;		/* resolved absolute path */
	int sock;			/* init's end of the setup socketpair */
	scmp_filter_ctx seccomp;	/* NULL: no filter */
	sigset_t forward;		/* signals passed on to the command */
	uint64_t caps;			/* the command's capabilities (caps.h) */
};

/*
 * Body of the container's init (PID 1 of the new PID namespace): finish
 * the setup the shim drives, start the command and pass signals on to it.
 * Exits with the command's status.
 */
__attribute__((noreturn)) void shim_container_init(const struct shim_container *c);

/* The environment of the command: defaults, then --env, then the token path. */
int shim_build_env(const struct shim_config *cfg, char **envp, size_t max,
		   char *storage, size_t storage_len, struct shim_err *err);

#endif
