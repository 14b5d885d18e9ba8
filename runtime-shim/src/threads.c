// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Thread supervision: the backend is chosen once, before the container
 * exists, and the supervisor speaks to it through this interface only.
 * The BPF program (threads_bpf.c) is preferred: the shim is woken for the
 * container's exits only, whatever the rest of the host does, and needs
 * no pidfd per task.  Where it cannot load, the process-events connector
 * and a PIDFD_THREAD pidfd per thread (threads_connector.c) do the same.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "events.h"
#include "threads_backend.h"

/*
 * The BPF program and the connector report the host's IDs: the shim must
 * see them as they are, in the initial PID namespace (one NSpid entry).
 */
static int in_initial_pid_ns(struct shim_err *why)
{
	char line[256];
	int r = -1;
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return shim_fail(why, errno, "/proc/self/status");
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "NSpid:", 6) == 0) {
			r = strchr(line + 7, '\t') || strchr(line + 7, ' ') ? 0 : 1;
			break;
		}
	fclose(f);
	if (r < 0)
		return shim_fail(why, ENOENT, "/proc/self/status: no NSpid line");
	if (r == 0)
		shim_fail(why, 0, "the shim is not in the initial PID namespace");
	return r;
}

int shim_threads_subscribe(struct shim_watch *w, int events_fd, struct shim_err *err)
{
	struct shim_err why = { 0 }, ev = { 0 };
	char detail[sizeof(why.msg) + 128];
	/* Tests and the bench compare the two: SHIM_WATCH_MECHANISM=connector. */
	const char *want = secure_getenv("SHIM_WATCH_MECHANISM");

	*w = (struct shim_watch)SHIM_WATCH_INIT;
	if (want && strcmp(want, "connector") == 0)
		shim_fail(&why, 0, "SHIM_WATCH_MECHANISM=connector");
	else if (in_initial_pid_ns(&why) == 1 && shim_threads_bpf_subscribe(&w->tw, &why) == 0)
		w->backend = &shim_threads_bpf_backend;
	if (w->backend) {
		snprintf(detail, sizeof(detail), "bpf: every fork and exit of the container from "
			 "the sched_process_fork/exit tracepoints, through a ring buffer");
	} else {
		w->cn_fd = shim_threads_connector_subscribe(err);
		if (w->cn_fd < 0) {
			shim_fail_note(err, "the BPF program was not loaded either: %s", why.msg);
			return -1;
		}
		w->backend = &shim_threads_connector_backend;
		snprintf(detail, sizeof(detail), "connector: the process-events connector, as the "
			 "BPF program was not loaded (%s)", why.msg);
	}
	if (shim_event_note(events_fd, "thread-watch", detail, &ev))
		shim_err_print(&ev);
	return 0;
}

void shim_watch_release(struct shim_watch *w)
{
	if (w->backend)
		w->backend->release(w);
	w->backend = NULL;
}

int shim_threads_init(struct shim_threads *t, int epfd, int events_fd,
		      struct shim_watch *w, pid_t init_pid, struct shim_err *err)
{
	memset(t, 0, sizeof(*t));
	t->epfd = epfd;
	t->events_fd = events_fd;
	if (!w->backend)
		return shim_fail(err, EINVAL, "--watch-threads: no subscription to follow the container with");
	t->backend = w->backend;
	return t->backend->init(t, w, init_pid, err);
}

void shim_threads_readable(struct shim_threads *t, enum shim_loop_tag tag, uint32_t low)
{
	t->backend->readable(t, tag, low);
}

void shim_threads_finish(struct shim_threads *t)
{
	t->backend->finish(t);
	shim_threads_flush(t);
}

void shim_threads_free(struct shim_threads *t)
{
	/* Exits decided before a failure are still said. */
	shim_threads_flush(t);
	if (t->backend)
		t->backend->free(t);
}
