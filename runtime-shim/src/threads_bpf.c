// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --watch-threads through BPF.  A program on the scheduler's fork and
 * exit tracepoints (taskwatch.bpf.c, loaded by taskwatch.c) follows the
 * tasks that descend from the container's init and hands each one's exit
 * to the shim in a ring buffer.  The exit event comes from the kernel's
 * exit path itself, so no pidfd per task is needed, and the program
 * counts what it could not hand over: a loss is reported, never silent.
 *
 * While exits come in bursts (the last read found more than one), the
 * shim reads them in batches (taskwatch.h: SHIM_TW_BATCH_US): woken by
 * the first exit, it arms a timer and reads when that fires, or at once
 * when a full batch wakes it again; one wakeup, one read and one write
 * then serve many.  An exit that comes alone is read at once: a timer
 * would only add a wakeup and its delay.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "threads_backend.h"

int shim_threads_bpf_subscribe(struct shim_taskwatch *tw, struct shim_err *why)
{
	if (shim_taskwatch_load(tw, why) == 0)
		return 0;
	shim_taskwatch_free(tw);
	return -1;
}

/* One exit from the ring buffer (libbpf's callback). */
static int on_exit_record(void *ctx, void *data, size_t size)
{
	struct shim_threads *t = ctx;
	const struct shim_tw_exit *e = data;

	if (size < sizeof(*e))
		return 0;
	shim_threads_exit(t, (pid_t)e->tid, (pid_t)e->pid);
	return 0;
}

/* Exits from the ring buffer, then a loss, if the program counted one. */
static void consume(struct shim_threads *t)
{
	const char *what = NULL;
	int r = ring_buffer__consume(t->bpf.rb);

	/* More than one exit since the last read: exits come in a burst. */
	t->bpf.burst = r > 1;
	if (r < 0) {
		struct shim_err warn = { 0 };

		shim_fail(&warn, -r, "--watch-threads: read the BPF ring buffer");
		shim_err_print(&warn);
		shim_threads_note(t, "thread-watch-failed", warn.msg);
	}
	if (shim_taskwatch_lost(t->bpf.tw, &what))
		shim_threads_lost(t, what);
}

static void batch_arm(struct shim_threads *t, bool on)
{
	struct itimerspec when = {
		.it_value.tv_nsec = on ? SHIM_TW_BATCH_US * 1000L : 0,
	};

	if (timerfd_settime(t->bpf.batch_fd, 0, &when, NULL) == 0) {
		t->bpf.batch_armed = on;
		return;
	}
	/* Unreachable with a valid timerfd; read now rather than never. */
	t->bpf.batch_armed = false;
	consume(t);
}

static int bpf_init(struct shim_threads *t, struct shim_watch *w, pid_t init_pid,
		    struct shim_err *err)
{
	/*
	 * Edge-triggered: the ring buffer stays readable while a batch
	 * waits for its timer, and only its wakeups are news.
	 */
	struct epoll_event ev = {
		.events = EPOLLIN | EPOLLET,
		.data.u64 = shim_loop_data(SHIM_LOOP_TASKWATCH, 0),
	};
	struct epoll_event timer = {
		.events = EPOLLIN,
		.data.u64 = shim_loop_data(SHIM_LOOP_TASKWATCH_BATCH, 0),
	};
	int r;

	/* The program was seeded with the init's parent: it follows the init already. */
	(void)init_pid;
	t->bpf.tw = &w->tw;
	t->bpf.batch_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (t->bpf.batch_fd < 0)
		return shim_fail(err, errno, "--watch-threads: timerfd_create");
	if (epoll_ctl(t->epfd, EPOLL_CTL_ADD, t->bpf.batch_fd, &timer) < 0)
		return shim_fail(err, errno, "epoll_ctl the batch timer");
	t->bpf.rb = ring_buffer__new(w->tw.exits_fd, on_exit_record, t, NULL);
	r = (int)libbpf_get_error(t->bpf.rb);
	if (r) {
		t->bpf.rb = NULL;
		return shim_fail(err, -r, "--watch-threads: the BPF ring buffer");
	}
	if (epoll_ctl(t->epfd, EPOLL_CTL_ADD, w->tw.exits_fd, &ev) < 0)
		return shim_fail(err, errno, "epoll_ctl the BPF ring buffer");
	/* What ended before the supervisor ran. */
	consume(t);
	shim_threads_flush(t);
	return 0;
}

static void bpf_readable(struct shim_threads *t, enum shim_loop_tag tag, uint32_t low)
{
	uint64_t expirations;

	(void)low;
	if (!t->bpf.rb)
		return;
	if (tag == SHIM_LOOP_TASKWATCH) {
		/* In a burst, the first exit waits for the ones behind it. */
		if (!t->bpf.batch_armed && t->bpf.burst) {
			batch_arm(t, true);
			return;
		}
		/* Exits one at a time, or a full batch while the timer runs. */
		if (t->bpf.batch_armed)
			batch_arm(t, false);
		consume(t);
	} else if (tag == SHIM_LOOP_TASKWATCH_BATCH) {
		if (read(t->bpf.batch_fd, &expirations, sizeof(expirations)) < 0 && errno == EAGAIN)
			return;
		t->bpf.batch_armed = false;
		consume(t);
	}
}

/*
 * Each task's exit was in the ring buffer before its exit_notify(), and
 * the init's pidfd is readable only after the rest of the PID namespace
 * has gone, so every exit is there now.
 */
static void bpf_finish(struct shim_threads *t)
{
	if (t->bpf.rb)
		consume(t);
}

static void bpf_free(struct shim_threads *t)
{
	ring_buffer__free(t->bpf.rb);
	t->bpf.rb = NULL;
	if (t->bpf.batch_fd >= 0)
		close(t->bpf.batch_fd);
	t->bpf.batch_fd = -1;
}

static void bpf_release(struct shim_watch *w)
{
	shim_taskwatch_free(&w->tw);
}

const struct shim_threads_backend shim_threads_bpf_backend = {
	.init = bpf_init,
	.readable = bpf_readable,
	.finish = bpf_finish,
	.free = bpf_free,
	.release = bpf_release,
};
