/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SHIM_CONTAINER_H
#define SHIM_CONTAINER_H

#include <signal.h>

#include "seccomp_prog.h"
#include "shim.h"

/* The container's namespaces the shim made first (a privileged run); -1: none. */
struct shim_nsfds {
	int user, uts, ipc, cgroup, net;
};

#define SHIM_NSFDS_INIT { .user = -1, .uts = -1, .ipc = -1, .cgroup = -1, .net = -1 }

static inline void shim_nsfds_close(struct shim_nsfds *ns)
{
	shim_closep(&ns->user);
	shim_closep(&ns->uts);
	shim_closep(&ns->ipc);
	shim_closep(&ns->cgroup);
	shim_closep(&ns->net);
}

/* What the container's init needs; prepared by the shim before clone. */
struct shim_container {
	const struct shim_config *cfg;
	const char *rootfs;		/* resolved absolute path */
	int sock;			/* init's end of the setup socketpair */
	const struct shim_seccomp_prog *seccomp;	/* len 0: no filter */
	sigset_t forward;		/* signals passed on to the command */
	uint64_t caps;			/* the command's capabilities (caps.h) */
	/*
	 * locked: the init starts as host root in new mount and PID
	 * namespaces, builds the rootfs, then joins ns; else it starts in all
	 * the container's namespaces.
	 */
	bool locked;
	struct shim_nsfds ns;
	/* Without root, in a cgroup of its own: the init makes the cgroup namespace there. */
	bool unshare_cgroup;
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
