// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The supervisor: one epoll loop over the init's pidfd, a signalfd and,
 * with --watch-threads, the BPF ring buffer of the container's task exits
 * (or, as a fallback, the process-events connector and a PIDFD_THREAD
 * pidfd per container thread).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>

#include "events.h"
#include "kernel.h"
#include "signals.h"
#include "supervise.h"
#include "threads.h"
#include "status.h"
#include "tty.h"

static int add_fd(int epfd, int fd, enum shim_loop_tag tag, struct shim_err *err)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = shim_loop_data(tag, 0) };

	if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
		return shim_fail(err, errno, "epoll_ctl add");
	return 0;
}

static void forward(const struct shim_supervisor *s, struct shim_tty *tty)
{
	struct shim_err err;

	/* With --tty, SIGWINCH resizes the pty; the kernel signals the container. */
	if (shim_forward_pending(s->sigfd, s->pidfd, s->pid, s->verbose,
				 tty->master >= 0 ? shim_tty_resize : NULL, tty, &err) < 0)
		shim_err_print(&err);
}

/* Handle what epoll reported; returns true once init has exited. */
static bool dispatch(const struct shim_supervisor *s, struct shim_threads *t,
		     struct shim_tty *tty, struct epoll_event *evs, int n)
{
	bool done = false;

	for (int i = 0; i < n; i++) {
		enum shim_loop_tag tag = shim_loop_tag(evs[i].data.u64);

		if (tag == SHIM_LOOP_INIT)
			done = true;
		else if (tag == SHIM_LOOP_SIGNAL)
			forward(s, tty);
		else if (tag == SHIM_LOOP_TTY_IN || tag == SHIM_LOOP_TTY_PTY)
			shim_tty_event(tty, tag, evs[i].events);
		else if (t)
			shim_threads_readable(t, tag, (uint32_t)evs[i].data.u64);
	}
	if (t)
		shim_threads_flush(t);
	return done;
}

/*
 * With --watch-threads the supervisor reports the container's tasks as
 * they end, and it competes for the CPU with the very tasks it follows.
 * Where it may (CAP_SYS_NICE), it runs at SHIM_SUPERVISOR_NICE.  The
 * container keeps nice 0: its init was forked before this, and all of it
 * descends from the init.
 */
static void run_ahead(const struct shim_supervisor *s)
{
	struct shim_voice v = { .who = "shim", .verbose = s->verbose };

	if (setpriority(PRIO_PROCESS, 0, SHIM_SUPERVISOR_NICE) < 0)
		shim_note(&v, "the supervisor keeps its nice value (setpriority %d: %s)",
			  SHIM_SUPERVISOR_NICE, strerror(errno));
}

int shim_supervise(const struct shim_supervisor *s, int *status,
		   struct shim_err *err)
{
	struct shim_threads threads;
	struct shim_tty tty;
	struct epoll_event evs[32];
	bool have_threads = false, done = false;
	cleanup_fd int epfd = -1;
	struct shim_err ev;
	siginfo_t info;
	uint64_t oom_kills;
	int n, r = 0;

	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (epfd < 0)
		return shim_fail(err, errno, "epoll_create1");
	if (add_fd(epfd, s->pidfd, SHIM_LOOP_INIT, err) ||
	    add_fd(epfd, s->sigfd, SHIM_LOOP_SIGNAL, err))
		return -1;

	if (s->watch_threads) {
		run_ahead(s);
		if (shim_threads_init(&threads, epfd, s->events_fd, s->watch, s->pid, err)) {
			shim_threads_free(&threads);
			return -1;
		}
		have_threads = true;
	}
	shim_tty_init(&tty);
	if (s->tty_master >= 0) {
		int master = fcntl(s->tty_master, F_DUPFD_CLOEXEC, 3);

		if (master < 0 || shim_tty_start(&tty, master, epfd, err)) {
			if (master < 0)
				shim_fail(err, errno, "--tty: dup the pty");
			shim_tty_release(&tty);
			if (have_threads)
				shim_threads_free(&threads);
			return -1;
		}
	}

	while (!done) {
		n = epoll_wait(epfd, evs, (int)ARRAY_SIZE(evs), -1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			r = shim_fail(err, errno, "epoll_wait");
			break;
		}
		done = dispatch(s, have_threads ? &threads : NULL, &tty, evs, n);
	}
	/* The PID namespace is empty now: report the last thread exits. */
	if (have_threads) {
		if (r == 0)
			shim_threads_finish(&threads);
		shim_threads_free(&threads);
	}
	/* Output the container wrote before it ended, then the terminal as it was. */
	shim_tty_drain(&tty);
	shim_tty_release(&tty);
	if (r)
		return r;

	memset(&info, 0, sizeof(info));
	while (waitid((idtype_t)P_PIDFD, (id_t)s->pidfd, &info, WEXITED) < 0) {
		if (errno != EINTR)
			return shim_fail(err, errno, "waitid P_PIDFD");
	}
	*status = shim_wait_status(&info);
	/* The status stands; a stream that cannot take its event is said on stderr. */
	oom_kills = s->cgroup ? shim_cgroup_oom_kills(s->cgroup) : 0;
	if (oom_kills) {
		char detail[128];

		snprintf(detail, sizeof(detail), "the kernel killed %llu process%s of the container "
			 "at its memory limit", (unsigned long long)oom_kills, oom_kills == 1 ? "" : "es");
		if (shim_event_note(s->events_fd, "oom-kill", detail, &ev))
			shim_err_print(&ev);
		shim_warn(&(struct shim_voice){ .who = "shim", .verbose = s->verbose }, "%s", detail);
	}
	if (shim_event_container_exit(s->events_fd, s->pid, *status, oom_kills, &ev))
		shim_err_print(&ev);
	return 0;
}
