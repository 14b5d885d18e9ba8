/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --watch-threads: the container's threads followed through the kernel's
 * process-events connector (netlink CN_IDX_PROC), each with a
 * PIDFD_THREAD pidfd in the supervisor's epoll set.
 */
#ifndef SHIM_THREADS_H
#define SHIM_THREADS_H

#include <sys/types.h>

#include "events.h"
#include "shim.h"

/* One fork or exit from the connector; every ID is the host's. */
struct shim_cn_event {
	enum { SHIM_CN_FORK, SHIM_CN_EXIT } kind;
	pid_t tid, tgid;		/* the new task (fork), the task that ended (exit) */
	pid_t parent_tid, parent_tgid;	/* fork only: the new task's parent */
};

/* Thread exits decided but not yet written: one write(2) for a batch. */
#define SHIM_EVENTS_PENDING 256

struct shim_threads {
	int epfd;
	int events_fd;
	int cn_fd;		/* the caller's; -1 once reading it failed */
	pid_t init_pid;
	dev_t ns_dev;		/* the container's PID namespace, for rescans */
	ino_t ns_ino;
	void *threads;		/* tsearch tree of struct shim_thread, by tid */
	void *procs;		/* tsearch tree of struct shim_proc, by tgid */
	size_t n_threads;
	unsigned long losses;	/* connector overruns (ENOBUFS) */
	bool fd_limit_noted;	/* thread-watch-fd-limit already written */
	bool events_failed;	/* a write to --events failed: said once */
	size_t n_pending;
	struct shim_thread_exit pending[SHIM_EVENTS_PENDING];
};

/* epoll data for thread pidfds and the connector: tag in the high 32 bits. */
#define SHIM_EPOLL_TAG_THREAD 3ULL
#define SHIM_EPOLL_TAG_CONNECTOR 4ULL

/* 1 if pidfd_open() knows PIDFD_THREAD, 0 if not (why records what came back). */
int shim_pidfd_thread_probe(struct shim_err *why);

/*
 * Subscribe to the process-events connector; returns the socket.  Done
 * before the container starts, so its first fork is already reported.
 */
int shim_threads_subscribe(struct shim_err *err);

/*
 * Parse one datagram from the connector socket into at most max events;
 * returns how many, or -1 (err) for a malformed message.  Messages other
 * than process forks and exits are skipped.
 */
int shim_cn_parse(const void *buf, size_t len, struct shim_cn_event *out,
		  size_t max, struct shim_err *err);

/*
 * Start following the container whose init is init_pid, from the events
 * cn_fd (shim_threads_subscribe) has queued since; cn_fd stays the caller's.
 */
int shim_threads_init(struct shim_threads *t, int epfd, int events_fd,
		      int cn_fd, pid_t init_pid, struct shim_err *err);
/*
 * The connector socket is readable: follow forks and exits.  A loss is
 * reported in an event and repaired by a rescan; a failure is reported
 * and ends the following of new threads.  Exits are written by
 * shim_threads_flush(), as below.
 */
void shim_threads_connector(struct shim_threads *t);
/*
 * A thread pidfd became readable: report and forget it.  The event is
 * written by shim_threads_flush(), which the caller runs once it has
 * handled what one epoll_wait() returned.
 */
void shim_threads_exited(struct shim_threads *t, pid_t tid);
void shim_threads_flush(struct shim_threads *t);
/*
 * The init has exited, so every task of the container has: take the
 * connector's last events and report every thread still followed.
 */
void shim_threads_finish(struct shim_threads *t);
void shim_threads_free(struct shim_threads *t);

#endif
