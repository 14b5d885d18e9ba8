/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --watch-threads' connector backend (threads_connector.c): the kernel's
 * process-events connector (netlink CN_IDX_PROC), each thread with a
 * PIDFD_THREAD pidfd in the supervisor's epoll set.
 */
#ifndef SHIM_THREADS_CONNECTOR_H
#define SHIM_THREADS_CONNECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "shim.h"

struct shim_threads_cn {
	int fd;			/* the caller's; -1 once reading it failed */
	dev_t ns_dev;		/* the container's PID namespace, for rescans */
	ino_t ns_ino;
	void *threads;		/* tsearch tree of struct shim_thread, by tid */
	void *procs;		/* tsearch tree of struct shim_proc, by tgid */
	bool fd_limit_noted;	/* thread-watch-fd-limit already written */
};

/* One fork or exit from the connector; every ID is the host's. */
struct shim_cn_event {
	enum { SHIM_CN_FORK, SHIM_CN_EXIT } kind;
	pid_t tid, tgid;		/* the new task (fork), the task that ended (exit) */
	pid_t parent_tid, parent_tgid;	/* fork only: the new task's parent */
};

/* Does pidfd_open() know PIDFD_THREAD?  why records what came back. */
void shim_pidfd_thread_probe(bool *supported, struct shim_err *why);

/* Subscribe to the process-events connector alone; returns the socket. */
int shim_threads_connector_subscribe(struct shim_err *err);

/*
 * Parse one datagram from the connector socket into at most max events;
 * returns how many, or -1 (err) for a malformed message.  Messages other
 * than process forks and exits are skipped.
 */
int shim_cn_parse(const void *buf, size_t len, struct shim_cn_event *out,
		  size_t max, struct shim_err *err);

#endif
