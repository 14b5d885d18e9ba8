/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --watch-threads: a PIDFD_THREAD pidfd per thread of every process in the
 * container's PID namespace, in the supervisor's epoll set.
 */
#ifndef SHIM_THREADS_H
#define SHIM_THREADS_H

#include <sys/types.h>

#include "shim.h"

struct shim_thread {
	pid_t tid;
	pid_t pid;	/* thread group */
	int fd;		/* -1 once reported */
	bool seen;	/* present in the last scan */
};

struct shim_threads {
	int epfd;
	int events_fd;
	dev_t ns_dev;
	ino_t ns_ino;
	struct shim_thread *v;
	size_t n, cap;
};

/* epoll data for thread pidfds: tag in the high 32 bits, tid below. */
#define SHIM_EPOLL_TAG_THREAD 3ULL

/* 1 if pidfd_open() knows PIDFD_THREAD, 0 if not (reason says what came back). */
int shim_pidfd_thread_probe(char *reason, size_t len);

int shim_threads_init(struct shim_threads *t, int epfd, int events_fd,
		      pid_t init_pid, struct shim_err *err);
/* Find new threads of the container's processes; open and register them. */
int shim_threads_scan(struct shim_threads *t, struct shim_err *err);
/* A thread pidfd became readable: report and forget it. */
void shim_threads_exited(struct shim_threads *t, pid_t tid);
void shim_threads_free(struct shim_threads *t);

#endif
