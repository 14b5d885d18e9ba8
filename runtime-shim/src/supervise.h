/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SHIM_SUPERVISE_H
#define SHIM_SUPERVISE_H

#include <signal.h>

#include "cgroup.h"
#include "shim.h"
#include "threads.h"

/* The supervisor's nice value with --watch-threads, where it is allowed. */
#define SHIM_SUPERVISOR_NICE (-10)

struct shim_supervisor {
	pid_t pid;		/* the container's init, in our PID namespace */
	int pidfd;
	int sigfd;
	int events_fd;		/* -1: no --events */
	bool watch_threads;
	struct shim_watch *watch;	/* --watch-threads: shim_threads_subscribe()'s */
	bool verbose;
	int tty_master;		/* --tty: the container's pty master, else -1 */
	const struct shim_cgroup *cgroup;	/* its OOM kills go into container-exit */
};

/*
 * Run until the container's init exits: forward signals, report thread
 * exits, reap with waitid(P_PIDFD).  *status gets the exit code to use.
 */
int shim_supervise(const struct shim_supervisor *s, int *status,
		   struct shim_err *err);

#endif
