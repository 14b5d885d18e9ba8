// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What both --watch-threads backends write to --events: thread exits in
 * batches, notes in their place among them, losses.  A failed write is
 * said on stderr once: a reader that went away would otherwise cost a
 * line per thread.
 */
#include "events.h"
#include "threads_backend.h"

static void event_written(struct shim_threads *t, int r, const struct shim_err *err)
{
	if (r == 0 || t->events_failed)
		return;
	t->events_failed = true;
	shim_err_print(err);
}

void shim_threads_flush(struct shim_threads *t)
{
	struct shim_err ev;

	if (t->n_pending == 0)
		return;
	event_written(t, shim_event_thread_exits(t->events_fd, t->pending, t->n_pending, &ev), &ev);
	t->n_pending = 0;
}

void shim_threads_exit(struct shim_threads *t, pid_t tid, pid_t tgid)
{
	if (t->n_pending == SHIM_EVENTS_PENDING)
		shim_threads_flush(t);
	t->pending[t->n_pending++] = (struct shim_thread_exit){ .tid = tid, .pid = tgid };
}

void shim_threads_note(struct shim_threads *t, const char *event, const char *detail)
{
	struct shim_err ev;

	shim_threads_flush(t);
	event_written(t, shim_event_note(t->events_fd, event, detail, &ev), &ev);
}

void shim_threads_lost(struct shim_threads *t, const char *detail)
{
	struct shim_err warn = { 0 };

	if (t->losses++ == 0) {
		shim_fail(&warn, 0, "--watch-threads: %s", detail);
		shim_err_print(&warn);
	}
	shim_threads_note(t, "thread-events-lost", detail);
}
