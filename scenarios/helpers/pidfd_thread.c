// SPDX-License-Identifier: GPL-2.0
/*
 * Thread pidfds: pidfd_open(PIDFD_THREAD) and exit notification by poll().
 * usage: pidfd_thread open | poll
 */
#include "pidfd_common.h"

/* State letter of /proc/PID/task/TID/stat, or 0. */
static char task_state(pid_t pid, pid_t tid)
{
	char path[64], buf[512], *p;
	AUTOCLOSE int fd = -1;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/* Wait until the task is in state @want (e.g. 'Z'); false on timeout. */
static bool wait_state(pid_t pid, pid_t tid, char want)
{
	for (int i = 0; i < PF_EVENT_MS / 10; i++) {
		if (task_state(pid, tid) == want)
			return true;
		pf_msleep(10);
	}
	return false;
}

/* The comm of a process, for telling that an exec happened. */
static bool wait_comm(pid_t pid, const char *want)
{
	char path[64], buf[64];

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	for (int i = 0; i < PF_EVENT_MS / 10; i++) {
		AUTOCLOSE int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

		if (n > 0) {
			buf[n] = '\0';
			buf[strcspn(buf, "\n")] = '\0';
			if (!strcmp(buf, want))
				return true;
		}
		pf_msleep(10);
	}
	return false;
}

/* Poll until POLLHUP shows up (reaping may trail the exit a little). */
static int poll_until_hup(int fd)
{
	int r = 0;

	for (int i = 0; i < PF_EVENT_MS / 10; i++) {
		r = pf_poll(fd, 0);
		if (r < 0 || (r & POLLHUP))
			break;
		pf_msleep(10);
	}
	return r;
}

struct delayed_write {
	int fd;
	long ms;
};

static void *delayed_write_main(void *arg)
{
	struct delayed_write *d = arg;

	pf_msleep(d->ms);
	if (write(d->fd, "x", 1) != 1)
		perror("delayed write");
	free(d);
	return NULL;
}

/* Write one byte to @fd after @ms, from another thread: lets poll() block first. */
static int write_later(int fd, long ms)
{
	struct delayed_write *d = malloc(sizeof(*d));
	pthread_t t;

	if (!d)
		return -1;
	d->fd = fd;
	d->ms = ms;
	errno = pthread_create(&t, NULL, delayed_write_main, d);
	if (errno) {
		free(d);
		return -1;
	}
	pthread_detach(t);
	return 0;
}

static int test_open(void)
{
	struct tap t = { 0 };
	struct pf_thread th;
	AUTOCLOSE int tfd = -1, lfd = -1, pfd = -1, nbfd = -1;
	char buf[64], want[32];
	int rc, fl;
	pid_t dead;

	pf_require_thread_pidfds();
	if (pf_thread_start(&th))
		return 1;
	tap_plan(&t, 15);

	rc = sys_pidfd_open(th.tid, 0);
	tap_errno(&t, rc, EINVAL, "pidfd_open(tid of a non-leader, 0)");
	if (rc >= 0)
		close(rc);

	tfd = sys_pidfd_open(th.tid, PIDFD_THREAD);
	tap_ok(&t, tfd >= 0, "pidfd_open(tid of a non-leader, PIDFD_THREAD) succeeds (%s)", pf_err(tfd));

	snprintf(want, sizeof(want), "%d", th.tid);
	tap_ok(&t, tfd >= 0 && pf_fdinfo(tfd, "Pid", buf, sizeof(buf)) && !strcmp(buf, want),
	       "fdinfo Pid: of the thread pidfd is the tid %s (got %s)", want,
	       tfd >= 0 && pf_fdinfo(tfd, "Pid", buf, sizeof(buf)) ? buf : "nothing");

	fl = tfd >= 0 ? fcntl(tfd, F_GETFL) : -1;
	tap_ok(&t, fl >= 0 && (fl & PIDFD_THREAD) && (fl & O_ACCMODE) == O_RDWR,
	       "F_GETFL of a thread pidfd shows O_RDWR|PIDFD_THREAD (got %#o)", fl);

	lfd = sys_pidfd_open(getpid(), PIDFD_THREAD);
	tap_ok(&t, lfd >= 0, "pidfd_open(thread-group leader, PIDFD_THREAD) succeeds (%s)", pf_err(lfd));

	pfd = sys_pidfd_open(getpid(), 0);
	fl = pfd >= 0 ? fcntl(pfd, F_GETFL) : -1;
	tap_ok(&t, fl >= 0 && !(fl & PIDFD_THREAD), "F_GETFL of a process pidfd has no PIDFD_THREAD (got %#o)",
	       fl);

	nbfd = sys_pidfd_open(th.tid, PIDFD_THREAD | PIDFD_NONBLOCK);
	fl = nbfd >= 0 ? fcntl(nbfd, F_GETFL) : -1;
	tap_ok(&t, fl >= 0 && (fl & O_NONBLOCK) && (fl & PIDFD_THREAD),
	       "PIDFD_THREAD | PIDFD_NONBLOCK gives a non-blocking thread pidfd (F_GETFL %#o)", fl);

	rc = sys_pidfd_open(getpid(), PIDFD_THREAD | 1);
	tap_errno(&t, rc, EINVAL, "pidfd_open with PIDFD_THREAD and an unknown flag");
	if (rc >= 0)
		close(rc);

	rc = sys_pidfd_open(0, PIDFD_THREAD);
	tap_errno(&t, rc, EINVAL, "pidfd_open(0, PIDFD_THREAD)");
	if (rc >= 0)
		close(rc);

	rc = tfd >= 0 ? sys_pidfd_send_signal(tfd, 0, NULL, 0) : -1;
	tap_ok(&t, rc == 0, "signal 0 through a live thread's pidfd succeeds (%s)", pf_err(rc));

	rc = tfd >= 0 ? pf_poll(tfd, 0) : -1;
	tap_ok(&t, rc == 0, "a live thread's pidfd is not readable (%s)", pf_revents(rc, buf, sizeof(buf)));

	rc = tfd >= 0 ? sys_pidfd_getfd(tfd, th.ready[0], 0) : -1;
	tap_ok(&t, rc >= 0, "pidfd_getfd through a thread pidfd (%s)", pf_err(rc));
	if (rc >= 0)
		close(rc);

	dead = th.tid;
	pf_thread_stop(&th);
	/* The tid is free once the thread has been released; wait for that. */
	rc = tfd >= 0 ? poll_until_hup(tfd) : -1;
	tap_ok(&t, rc > 0 && (rc & POLLHUP), "the thread pidfd reports POLLHUP once the thread is gone (%s)",
	       pf_revents(rc, buf, sizeof(buf)));

	rc = sys_pidfd_open(dead, PIDFD_THREAD);
	tap_errno(&t, rc, ESRCH, "pidfd_open(tid of an exited thread, PIDFD_THREAD)");
	if (rc >= 0)
		close(rc);

	rc = tfd >= 0 ? sys_pidfd_send_signal(tfd, 0, NULL, 0) : -1;
	tap_errno(&t, rc, ESRCH, "signal 0 through the pidfd of an exited thread");

	return tap_done(&t);
}

/* A thread that exits on its own after a pause, so that poll() blocks first. */
static void *sleeper_main(void *arg)
{
	pid_t *tid = arg;

	__atomic_store_n(tid, sys_gettid(), __ATOMIC_SEQ_CST);
	pf_msleep(300);
	return NULL;
}

struct waiter {
	int ready; /* the thread writes its tid here */
	int wait; /* then exits once a byte arrives here (or it is closed) */
	int exec; /* non-zero: exec /bin/sleep instead of exiting */
};

static void *waiter_main(void *arg)
{
	struct waiter *w = arg;
	pid_t tid = sys_gettid();
	char c, *argv[] = { "sleep", "30", NULL };

	if (write(w->ready, &tid, sizeof(tid)) != sizeof(tid))
		return NULL;
	while (read(w->wait, &c, 1) < 0 && errno == EINTR)
		;
	if (w->exec)
		execv("/bin/sleep", argv);
	return NULL;
}

/*
 * Child process: a thread that reports its tid and waits on @wait. For the
 * leader-exit case the leader then waits on @go and exits alone; for the exec
 * case the thread execs when @wait is written and the leader just waits.
 */
static void waiter_child(int ready, int wait, int go, int exec)
{
	struct waiter w = { .ready = ready, .wait = wait, .exec = exec };
	pthread_t t;
	char c;

	if (pthread_create(&t, NULL, waiter_main, &w))
		_exit(2);
	if (read(go, &c, 1) != 1)
		_exit(2);
	if (exec) {
		pthread_join(t, NULL);
		_exit(3);
	}
	syscall(SYS_exit, 0);
	_exit(3);
}

struct child {
	pid_t pid;
	pid_t tid; /* the waiter thread */
	int wait; /* write end: release (or exec) the waiter thread */
	int go; /* write end: let the leader go on */
};

static int child_start(struct child *c, int exec)
{
	int ready[2], wait[2], go[2];

	if (pipe2(ready, O_CLOEXEC) || pipe2(wait, O_CLOEXEC) || pipe2(go, O_CLOEXEC)) {
		perror("child_start: pipe2");
		return -1;
	}
	c->pid = fork();
	if (c->pid < 0) {
		perror("child_start: fork");
		return -1;
	}
	if (!c->pid)
		waiter_child(ready[1], wait[0], go[0], exec);
	close(ready[1]);
	close(wait[0]);
	close(go[0]);
	c->wait = wait[1];
	c->go = go[1];
	if (read(ready[0], &c->tid, sizeof(c->tid)) != sizeof(c->tid)) {
		perror("child_start: read tid");
		close(ready[0]);
		return -1;
	}
	close(ready[0]);
	return 0;
}

static int test_poll(void)
{
	struct tap t = { 0 };
	char b1[64], b2[64];
	int r, r2;
	pid_t tid = 0;
	pthread_t th;

	pf_require_thread_pidfds();
	tap_plan(&t, 20);

	/* 1. A sub-thread's pidfd fires when that thread exits; the process lives on. */
	{
		AUTOCLOSE int tfd = -1, pfd = sys_pidfd_open(getpid(), 0);

		if (pthread_create(&th, NULL, sleeper_main, &tid))
			return 1;
		while (!__atomic_load_n(&tid, __ATOMIC_SEQ_CST))
			pf_msleep(1);
		tfd = sys_pidfd_open(tid, PIDFD_THREAD);
		r = tfd >= 0 ? pf_poll(tfd, PF_EVENT_MS) : -1;
		tap_ok(&t, r > 0 && (r & POLLIN), "a blocking poll on a thread pidfd wakes with POLLIN when the thread exits (%s)",
		       pf_revents(r, b1, sizeof(b1)));
		pthread_join(th, NULL);
		r = tfd >= 0 ? poll_until_hup(tfd) : -1;
		tap_ok(&t, r > 0 && (r & POLLIN) && (r & POLLHUP),
		       "the exited (self-reaped) thread's pidfd shows POLLIN|POLLHUP (%s)", pf_revents(r, b1, sizeof(b1)));
		r = pf_poll(pfd, 0);
		tap_ok(&t, r == 0, "the pidfd of the still running process is not readable (%s)",
		       pf_revents(r, b1, sizeof(b1)));
	}

	/* 2. The leader exits while another thread lives. */
	{
		struct child c;
		AUTOCLOSE int pfd = -1, lfd = -1, tfd = -1;
		int status;

		if (child_start(&c, 0))
			return 1;
		pfd = sys_pidfd_open(c.pid, 0);
		lfd = sys_pidfd_open(c.pid, PIDFD_THREAD);
		tfd = sys_pidfd_open(c.tid, PIDFD_THREAD);
		tap_ok(&t, pfd >= 0 && lfd >= 0 && tfd >= 0, "process, leader-thread and sub-thread pidfds of the child (%s)",
		       pf_err(pfd < 0 ? pfd : lfd < 0 ? lfd : tfd));
		/* Let the leader exit while we already block in poll(). */
		if (write(c.go, "x", 1) != 1)
			return 1;
		r = pf_poll(pfd, 1000);
		tap_ok(&t, r == 0, "process pidfd: no wake-up when only the leader thread exits (%s)",
		       pf_revents(r, b1, sizeof(b1)));
		tap_ok(&t, wait_state(c.pid, c.pid, 'Z'), "the leader thread is a zombie (state %c)",
		       task_state(c.pid, c.pid) ?: '?');
		r = pf_poll(pfd, PF_QUIET_MS);
		r2 = pf_poll(lfd, PF_QUIET_MS);
		tap_ok(&t, r == 0, "process pidfd is not readable while a thread lives (%s)", pf_revents(r, b1, sizeof(b1)));
		tap_ok(&t, r2 == 0, "PIDFD_THREAD pidfd of the exited leader stays unreadable while a thread lives (%s)",
		       pf_revents(r2, b2, sizeof(b2)));
		r = pf_poll(tfd, 0);
		tap_ok(&t, r == 0, "the live sub-thread's pidfd is not readable (%s)", pf_revents(r, b1, sizeof(b1)));
		/* Now let the last thread exit, while we block in poll(). */
		if (write_later(c.wait, 300))
			return 1;
		r = pf_poll(pfd, PF_EVENT_MS);
		tap_ok(&t, r > 0 && (r & POLLIN) && !(r & POLLHUP),
		       "process pidfd wakes with POLLIN (no POLLHUP before reaping) when the last thread exits (%s)",
		       pf_revents(r, b1, sizeof(b1)));
		r = pf_poll(lfd, PF_EVENT_MS);
		tap_ok(&t, r > 0 && (r & POLLIN), "the leader's PIDFD_THREAD pidfd is readable once the group is empty (%s)",
		       pf_revents(r, b1, sizeof(b1)));
		status = pf_wait(c.pid);
		r = pf_poll(pfd, PF_EVENT_MS);
		r2 = pf_poll(lfd, PF_EVENT_MS);
		tap_ok(&t, status == 0 && (r & POLLHUP) && (r2 & POLLHUP),
		       "after waitpid() both pidfds report POLLHUP (status %#x; %s; %s)", status,
		       pf_revents(r, b1, sizeof(b1)), pf_revents(r2, b2, sizeof(b2)));
		close(c.wait);
		close(c.go);
	}

	/* 3. A non-leader thread execs: the leader's struct pid lives on. */
	{
		struct child c;
		AUTOCLOSE int pfd = -1, lfd = -1, tfd = -1;
		int status;

		if (child_start(&c, 1))
			return 1;
		pfd = sys_pidfd_open(c.pid, 0);
		lfd = sys_pidfd_open(c.pid, PIDFD_THREAD);
		tfd = sys_pidfd_open(c.tid, PIDFD_THREAD);
		if (write(c.go, "x", 1) != 1 || write(c.wait, "x", 1) != 1)
			return 1;
		r = pf_poll(pfd, 1000);
		tap_ok(&t, r == 0, "process pidfd: no wake-up while a non-leader thread execs (%s)",
		       pf_revents(r, b1, sizeof(b1)));
		tap_ok(&t, wait_comm(c.pid, "sleep"), "the process now runs /bin/sleep under its old pid");
		r = pf_poll(pfd, PF_QUIET_MS);
		r2 = pf_poll(lfd, PF_QUIET_MS);
		tap_ok(&t, r == 0 && r2 == 0, "after the exec neither the process nor the leader-thread pidfd is readable (%s; %s)",
		       pf_revents(r, b1, sizeof(b1)), pf_revents(r2, b2, sizeof(b2)));
		r = poll_until_hup(tfd);
		tap_ok(&t, r > 0 && (r & POLLIN) && (r & POLLHUP),
		       "the exec'ing thread's old-tid pidfd reports POLLIN|POLLHUP: that tid is gone (%s)",
		       pf_revents(r, b1, sizeof(b1)));
		r = sys_pidfd_send_signal(pfd, SIGKILL, NULL, 0);
		r2 = pf_poll(pfd, PF_EVENT_MS);
		tap_ok(&t, r == 0 && r2 > 0 && (r2 & POLLIN), "SIGKILL through the pidfd, then it becomes readable (%s; %s)",
		       pf_err(r), pf_revents(r2, b1, sizeof(b1)));
		status = pf_wait(c.pid);
		r = pf_poll(pfd, PF_EVENT_MS);
		tap_ok(&t, WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL && (r & POLLHUP),
		       "reaped: killed by SIGKILL, POLLHUP (%s)", pf_revents(r, b1, sizeof(b1)));
		close(c.wait);
		close(c.go);
	}

	/* 4. A plain child: POLLIN at exit, POLLHUP only once reaped. */
	{
		AUTOCLOSE int pfd = -1;
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (!pid) {
			pf_msleep(200);
			_exit(7);
		}
		pfd = sys_pidfd_open(pid, 0);
		r = pf_poll(pfd, PF_EVENT_MS);
		tap_ok(&t, r > 0 && (r & POLLIN) && !(r & POLLHUP), "exited child: POLLIN without POLLHUP before waitpid() (%s)",
		       pf_revents(r, b1, sizeof(b1)));
		r2 = pf_wait(pid);
		r = pf_poll(pfd, 0);
		tap_ok(&t, WIFEXITED(r2) && WEXITSTATUS(r2) == 7 && r > 0 && (r & POLLIN) && (r & POLLHUP),
		       "reaped child: POLLIN|POLLHUP (%s)", pf_revents(r, b1, sizeof(b1)));
	}
	return tap_done(&t);
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "open"))
		return test_open();
	if (argc == 2 && !strcmp(argv[1], "poll"))
		return test_poll();
	fprintf(stderr, "usage: %s open|poll\n", argv[0]);
	return 2;
}
