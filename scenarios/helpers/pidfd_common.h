/* SPDX-License-Identifier: GPL-2.0 */
/* Shared pieces of the pidfd scenario helpers (scenarios/pidfd). */
#ifndef SCENARIO_PIDFD_COMMON_H
#define SCENARIO_PIDFD_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/magic.h>

#include "cleanup.h"
#include "tap.h"

/* <linux/pidfd.h> clashes with <fcntl.h>; the upstream UAPI values are fixed. */
#ifndef PIDFD_NONBLOCK
#define PIDFD_NONBLOCK O_NONBLOCK
#endif
#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif
#ifndef PIDFD_SIGNAL_THREAD
#define PIDFD_SIGNAL_THREAD (1UL << 0)
#define PIDFD_SIGNAL_THREAD_GROUP (1UL << 1)
#define PIDFD_SIGNAL_PROCESS_GROUP (1UL << 2)
#endif
#ifndef PID_FS_MAGIC
#define PID_FS_MAGIC 0x50494446
#endif

_Static_assert(PIDFD_THREAD == O_EXCL, "PIDFD_THREAD is O_EXCL");
_Static_assert(PIDFD_SIGNAL_THREAD == 1 && PIDFD_SIGNAL_THREAD_GROUP == 2 &&
		       PIDFD_SIGNAL_PROCESS_GROUP == 4,
	       "PIDFD_SIGNAL_* values");
_Static_assert(PID_FS_MAGIC == 0x50494446, "PID_FS_MAGIC");

/* Poll timeouts: generous for events that must come (TCG guests are slow),
 * short for events that must not. */
#define PF_EVENT_MS 10000
#define PF_QUIET_MS 300

static inline int sys_pidfd_open(pid_t pid, unsigned int flags)
{
	return (int)syscall(SYS_pidfd_open, pid, flags);
}

static inline int sys_pidfd_send_signal(int pidfd, int sig, siginfo_t *info, unsigned int flags)
{
	return (int)syscall(SYS_pidfd_send_signal, pidfd, sig, info, flags);
}

static inline int sys_pidfd_getfd(int pidfd, int fd, unsigned int flags)
{
	return (int)syscall(SYS_pidfd_getfd, pidfd, fd, flags);
}

static inline pid_t sys_gettid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static inline const char *pf_err(int rc)
{
	return rc < 0 ? strerrorname_np(errno) : "success";
}

/* poll() one fd: its revents, 0 on timeout, -1 on error. */
static inline int pf_poll(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int rc;

	do
		rc = poll(&p, 1, timeout_ms);
	while (rc < 0 && errno == EINTR);
	if (rc < 0)
		return -1;
	return rc ? p.revents : 0;
}

static inline const char *pf_revents(int r, char *buf, size_t len)
{
	if (r < 0)
		snprintf(buf, len, "poll error %s", strerrorname_np(errno));
	else if (!r)
		snprintf(buf, len, "nothing");
	else
		snprintf(buf, len, "%s%s%s%s", r & POLLIN ? "POLLIN " : "", r & POLLHUP ? "POLLHUP " : "",
			 r & POLLERR ? "POLLERR " : "", r & POLLNVAL ? "POLLNVAL " : "");
	return buf;
}

/* The value of a "Key:\t" line in /proc/self/fdinfo/FD, or NULL. */
static inline char *pf_fdinfo(int fd, const char *key, char *buf, size_t len)
{
	char path[64], line[256];
	size_t klen = strlen(key);
	FILE *f;
	char *found = NULL;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) || line[klen] != ':')
			continue;
		snprintf(buf, len, "%s", line + klen + 1 + strspn(line + klen + 1, " \t"));
		buf[strcspn(buf, "\n")] = '\0';
		found = buf;
		break;
	}
	fclose(f);
	return found;
}

/*
 * A thread that reports its tid and then waits until told to exit. The
 * process can run several; each has its own pipe.
 */
struct pf_thread {
	pthread_t thread;
	pid_t tid;
	int ready[2]; /* thread -> creator: the tid */
	int release[2]; /* creator -> thread: one byte = exit */
	bool joined;
};

static inline void *pf_thread_main(void *arg)
{
	struct pf_thread *t = arg;
	pid_t tid = sys_gettid();
	char c;

	if (write(t->ready[1], &tid, sizeof(tid)) != sizeof(tid))
		return NULL;
	while (read(t->release[0], &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

static inline int pf_thread_start(struct pf_thread *t)
{
	memset(t, 0, sizeof(*t));
	t->ready[0] = t->ready[1] = t->release[0] = t->release[1] = -1;
	if (pipe2(t->ready, O_CLOEXEC) || pipe2(t->release, O_CLOEXEC)) {
		perror("pf_thread_start: pipe2");
		return -1;
	}
	errno = pthread_create(&t->thread, NULL, pf_thread_main, t);
	if (errno) {
		perror("pf_thread_start: pthread_create");
		return -1;
	}
	if (read(t->ready[0], &t->tid, sizeof(t->tid)) != sizeof(t->tid)) {
		perror("pf_thread_start: read tid");
		return -1;
	}
	return 0;
}

/* Tell the thread to exit and join it. */
static inline void pf_thread_stop(struct pf_thread *t)
{
	if (!t->joined && t->release[1] >= 0) {
		if (write(t->release[1], "x", 1) == 1)
			pthread_join(t->thread, NULL);
		t->joined = true;
	}
	for (int i = 0; i < 2; i++) {
		close_fdp(&t->ready[i]);
		close_fdp(&t->release[i]);
	}
}

/* Whole-scenario probe for PIDFD_THREAD: skips (exits) on a kernel without it. */
static inline void pf_require_thread_pidfds(void)
{
	int fd = sys_pidfd_open(getpid(), PIDFD_THREAD);

	if (fd < 0 && errno == EINVAL)
		tap_skip_all("pidfd_open(PIDFD_THREAD): EINVAL");
	if (fd < 0) {
		printf("1..1\nnot ok 1 - pidfd_open(getpid(), PIDFD_THREAD) probe: %s\n",
		       strerrorname_np(errno));
		exit(1);
	}
	close(fd);
}

/* Sleep a little: lets another task reach the point under test. */
static inline void pf_msleep(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}


/* Whole-scenario probe for pidfs: skips (exits) where pidfds live elsewhere. */
static inline void pf_require_pidfs(void)
{
	struct statfs sfs;
	int fd = sys_pidfd_open(getpid(), 0);

	if (fd < 0 || fstatfs(fd, &sfs)) {
		printf("1..1\nnot ok 1 - pidfd_open/fstatfs of own pidfd: %s\n", strerrorname_np(errno));
		exit(1);
	}
	close(fd);
	if ((unsigned long)sfs.f_type != PID_FS_MAGIC)
		tap_skip_all("fstatfs(pidfd): f_type %#lx, not PID_FS_MAGIC", (unsigned long)sfs.f_type);
}

static inline uint64_t pf_ino(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? 0 : (uint64_t)st.st_ino;
}

/* Wait for a child and return its wait status, -1 on error. */
static inline int pf_wait(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, __WALL) < 0) {
		if (errno != EINTR)
			return -1;
	}
	return status;
}

/* A child that waits until *release is closed, optionally in new
 * namespaces (unshare flags) and with a hostname of its own.
 */
static inline pid_t pf_waiting_child(int flags, const char *hostname, int *release)
{
	int p[2], r[2];
	pid_t pid;
	char c;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	if (pipe2(r, O_CLOEXEC)) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		close(r[1]);
		if (flags && unshare(flags))
			_exit(2);
		if (hostname && sethostname(hostname, strlen(hostname)))
			_exit(3);
		if (write(p[1], "x", 1) != 1)
			_exit(4);
		while (read(r[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(p[1]);
	close(r[0]);
	*release = r[1];
	if (read(p[0], &c, 1) != 1)
		pid = -1;
	close(p[0]);
	return pid;
}

/* In a forked child: setns(fd, type), then report the hostname it sees
 * (or why setns failed) in got. True when that is want.
 */
static inline bool pf_setns_sees_hostname(int fd, int type, const char *want, char *got, size_t len)
{
	int p[2], status;
	pid_t pid;
	ssize_t n;

	got[0] = '\0';
	if (pipe2(p, O_CLOEXEC))
		return false;
	pid = fork();
	if (pid < 0)
		return false;
	if (!pid) {
		struct utsname u;

		close(p[0]);
		if (setns(fd, type) || uname(&u)) {
			dprintf(p[1], "setns: %s", strerrorname_np(errno));
			_exit(1);
		}
		dprintf(p[1], "%s", u.nodename);
		_exit(0);
	}
	close(p[1]);
	n = read(p[0], got, len - 1);
	got[n > 0 ? n : 0] = '\0';
	close(p[0]);
	status = pf_wait(pid);
	return status == 0 && !strcmp(got, want);
}

#endif
