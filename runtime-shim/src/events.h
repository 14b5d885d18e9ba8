/* SPDX-License-Identifier: GPL-2.0-or-later */
/* JSON lines written to --events FILE. */
#ifndef SHIM_EVENTS_H
#define SHIM_EVENTS_H

#include "shim.h"

/*
 * Open the --events file to append to: created 0644 if missing, never
 * truncated, not through a symlink, only a regular file or a FIFO.
 */
int shim_events_open(const char *path, struct shim_err *err);

/*
 * Each writes its event: 0, or -1 with err saying which event could not
 * be written and why.  fd < 0 (no --events) is a no-op.
 */
int shim_event_container_start(int fd, pid_t pid, struct shim_err *err);
/* oom_kills: the container's processes the kernel killed for memory.max. */
int shim_event_container_exit(int fd, pid_t pid, int status, uint64_t oom_kills,
			      struct shim_err *err);
int shim_event_note(int fd, const char *event, const char *detail,
		    struct shim_err *err);
/*
 * n thread-exit lines stamped with one time, in as few writes as fit: a
 * supervisor that decided a batch of exits reports them together.
 */
struct shim_thread_exit {
	pid_t tid, pid;
};
int shim_event_thread_exits(int fd, const struct shim_thread_exit *exits, size_t n,
			    struct shim_err *err);
/* Render a thread-exit line into buf (for tests); returns its length. */
int shim_event_format_thread_exit(char *buf, size_t len, pid_t tid, pid_t pid,
				  double time);

#endif
