/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Between threads.c and its two backends: what a backend does for the
 * interface, and what every backend reports through (threads_events.c).
 * Not for the rest of the shim, which sees threads.h only.
 */
#ifndef SHIM_THREADS_BACKEND_H
#define SHIM_THREADS_BACKEND_H

#include "threads.h"

struct shim_threads_backend {
	/* Take over w's subscription, as shim_threads_init() says. */
	int (*init)(struct shim_threads *t, struct shim_watch *w, pid_t init_pid,
		    struct shim_err *err);
	/* One of the backend's fds is readable; other tags are not its. */
	void (*readable)(struct shim_threads *t, enum shim_loop_tag tag, uint32_t low);
	/* The container has ended: take every event still queued. */
	void (*finish)(struct shim_threads *t);
	/* Release what init took; t may have failed halfway through init. */
	void (*free)(struct shim_threads *t);
	/* Release what the subscription holds, before or without init. */
	void (*release)(struct shim_watch *w);
};

extern const struct shim_threads_backend shim_threads_bpf_backend;
extern const struct shim_threads_backend shim_threads_connector_backend;

/* A thread's exit, written at the next flush (or now, with a full batch). */
void shim_threads_exit(struct shim_threads *t, pid_t tid, pid_t tgid);
/* An event; the exits decided before it go first, as it happened. */
void shim_threads_note(struct shim_threads *t, const char *event, const char *detail);
/* The backend lost events: each loss is an event, stderr says the first. */
void shim_threads_lost(struct shim_threads *t, const char *detail);

#endif
