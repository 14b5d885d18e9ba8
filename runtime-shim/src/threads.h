/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --watch-threads: every task of the container followed by a BPF program
 * on the scheduler's fork and exit tracepoints (taskwatch.bpf.c), its
 * exits read from a ring buffer; where that program cannot load, through
 * the kernel's process-events connector (netlink CN_IDX_PROC), each
 * thread with a PIDFD_THREAD pidfd in the supervisor's epoll set.
 */
#ifndef SHIM_THREADS_H
#define SHIM_THREADS_H

#include <sys/types.h>

#include "events.h"
#include "loop.h"
#include "shim.h"
#include "taskwatch.h"

/*
 * How the container's tasks are followed, set up before it exists: the
 * BPF program (bpf) or else the connector (cn_fd >= 0).
 */
struct shim_watch {
	bool bpf;
	struct shim_taskwatch tw;
	int cn_fd;
};
#define SHIM_WATCH_INIT { .bpf = false, .tw = { .exits_fd = -1, .lost_fd = -1 }, .cn_fd = -1 }

struct ring_buffer;

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
	int cn_fd;		/* the caller's; -1 once reading it failed, or with BPF */
	struct shim_taskwatch *tw;	/* the caller's, with BPF; else NULL */
	struct ring_buffer *rb;	/* reads tw's exits */
	dev_t ns_dev;		/* the container's PID namespace, for rescans */
	ino_t ns_ino;
	void *threads;		/* tsearch tree of struct shim_thread, by tid */
	void *procs;		/* tsearch tree of struct shim_proc, by tgid */
	unsigned long losses;	/* connector overruns (ENOBUFS) */
	bool fd_limit_noted;	/* thread-watch-fd-limit already written */
	bool events_failed;	/* a write to --events failed: said once */
	size_t n_pending;
	struct shim_thread_exit pending[SHIM_EVENTS_PENDING];
};

/* epoll data for thread pidfds and the connector: tag in the high 32 bits. */

/* Does pidfd_open() know PIDFD_THREAD?  why records what came back. */
void shim_pidfd_thread_probe(bool *supported, struct shim_err *why);

/*
 * Start following before the container's init is cloned, so that its
 * first fork is seen: the BPF program, seeded with the calling thread
 * (its next child is the init), or, where that cannot load, the
 * connector.  A thread-watch event on events_fd says which and why.
 * Nothing may be forked between this and the init's clone.
 */
int shim_threads_subscribe(struct shim_watch *w, int events_fd, struct shim_err *err);
void shim_watch_release(struct shim_watch *w);
/* Subscribe to the process-events connector alone; returns the socket. */
int shim_threads_connector_subscribe(struct shim_err *err);

/*
 * Parse one datagram from the connector socket into at most max events;
 * returns how many, or -1 (err) for a malformed message.  Messages other
 * than process forks and exits are skipped.
 */
int shim_cn_parse(const void *buf, size_t len, struct shim_cn_event *out,
		  size_t max, struct shim_err *err);

/*
 * Start following the container whose init is init_pid, from the events
 * w (shim_threads_subscribe) has queued since; w stays the caller's.
 */
int shim_threads_init(struct shim_threads *t, int epfd, int events_fd,
		      struct shim_watch *w, pid_t init_pid, struct shim_err *err);
/* The BPF ring buffer is readable: report the exits in it. */
void shim_threads_taskwatch(struct shim_threads *t);
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
