/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --watch-threads: every task of the container followed, each exit
 * written to --events.  One interface (threads.c) over two backends,
 * chosen once by shim_threads_subscribe(): a BPF program on the
 * scheduler's fork and exit tracepoints, its exits read from a ring
 * buffer (threads_bpf.c), or, where that program cannot load, the
 * kernel's process-events connector with a PIDFD_THREAD pidfd per thread
 * (threads_connector.c).
 */
#ifndef SHIM_THREADS_H
#define SHIM_THREADS_H

#include <stdint.h>
#include <sys/types.h>

#include "events.h"
#include "loop.h"
#include "shim.h"
#include "taskwatch.h"
#include "threads_bpf.h"
#include "threads_connector.h"

struct shim_threads_backend;

/*
 * How the container's tasks are followed, set up before it exists: the
 * backend, and what it holds until the supervisor takes over (the loaded
 * program, or the connector's socket).
 */
struct shim_watch {
	const struct shim_threads_backend *backend;	/* NULL until subscribed */
	struct shim_taskwatch tw;
	int cn_fd;
};
#define SHIM_WATCH_INIT { .backend = NULL, .tw = { .exits_fd = -1, .lost_fd = -1 }, .cn_fd = -1 }

/* Thread exits decided but not yet written: one write(2) for a batch. */
#define SHIM_EVENTS_PENDING 256

struct shim_threads {
	const struct shim_threads_backend *backend;
	int epfd;
	int events_fd;
	unsigned long losses;	/* losses the backend met: stderr says the first */
	bool events_failed;	/* a write to --events failed: said once */
	size_t n_pending;
	struct shim_thread_exit pending[SHIM_EVENTS_PENDING];
	union {
		struct shim_threads_bpf bpf;
		struct shim_threads_cn cn;
	};
};

/*
 * Start following before the container's init is cloned, so that its
 * first fork is seen: the BPF program, seeded with the calling thread
 * (its next child is the init), or, where that cannot load, the
 * connector.  A thread-watch event on events_fd says which and why.
 * Nothing may be forked between this and the init's clone.
 */
int shim_threads_subscribe(struct shim_watch *w, int events_fd, struct shim_err *err);
void shim_watch_release(struct shim_watch *w);

/*
 * Start following the container whose init is init_pid, from the events
 * w (shim_threads_subscribe) has queued since; w stays the caller's.
 */
int shim_threads_init(struct shim_threads *t, int epfd, int events_fd,
		      struct shim_watch *w, pid_t init_pid, struct shim_err *err);
/*
 * An fd the backend put in the epoll set is readable (tag, and the low
 * 32 bits of its epoll data); other tags are ignored.  The exits it
 * decides are written by shim_threads_flush(), which the caller runs once
 * it has handled what one epoll_wait() returned.
 */
void shim_threads_readable(struct shim_threads *t, enum shim_loop_tag tag, uint32_t low);
void shim_threads_flush(struct shim_threads *t);
/*
 * The init has exited, so every task of the container has: take the
 * backend's last events and report every thread still followed.
 */
void shim_threads_finish(struct shim_threads *t);
void shim_threads_free(struct shim_threads *t);

#endif
