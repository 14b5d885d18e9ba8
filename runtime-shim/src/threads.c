// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Thread supervision.  New threads are found by scanning /proc for tasks in
 * the container's PID namespace; each gets a PIDFD_THREAD pidfd, which
 * becomes readable when that thread exits (a thread-group leader's when
 * the whole group is gone).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/stat.h>

#include "events.h"
#include "kernel.h"
#include "threads.h"

int shim_pidfd_thread_probe(char *reason, size_t len)
{
	int fd = sys_pidfd_open(getpid(), SHIM_PIDFD_THREAD);

	if (fd >= 0) {
		close(fd);
		snprintf(reason, len, "pidfd_open(PIDFD_THREAD): ok");
		return 1;
	}
	snprintf(reason, len, "pidfd_open(PIDFD_THREAD): %s", strerror(errno));
	return 0;
}

int shim_threads_init(struct shim_threads *t, int epfd, int events_fd,
		      pid_t init_pid, struct shim_err *err)
{
	char path[64];
	struct stat st;

	memset(t, 0, sizeof(*t));
	t->epfd = epfd;
	t->events_fd = events_fd;
	snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)init_pid);
	if (stat(path, &st) < 0)
		return shim_fail(err, errno, "stat %s", path);
	t->ns_dev = st.st_dev;
	t->ns_ino = st.st_ino;
	return 0;
}

static struct shim_thread *find(struct shim_threads *t, pid_t tid)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].tid == tid)
			return &t->v[i];
	return NULL;
}

static int add(struct shim_threads *t, pid_t pid, pid_t tid,
	       struct shim_err *err)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct shim_thread *th;
	int fd;

	fd = sys_pidfd_open(tid, SHIM_PIDFD_THREAD);
	if (fd < 0) {
		if (errno == ESRCH)
			return 0;	/* gone before we looked */
		return shim_fail(err, errno, "pidfd_open %d PIDFD_THREAD", (int)tid);
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct shim_thread *v = realloc(t->v, cap * sizeof(*v));

		if (!v) {
			close(fd);
			return shim_fail(err, errno, "thread table");
		}
		t->v = v;
		t->cap = cap;
	}
	ev.data.u64 = (SHIM_EPOLL_TAG_THREAD << 32) | (uint32_t)tid;
	if (epoll_ctl(t->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		close(fd);
		return shim_fail(err, errno, "epoll_ctl thread %d", (int)tid);
	}
	th = &t->v[t->n++];
	th->tid = tid;
	th->pid = pid;
	th->fd = fd;
	th->seen = true;
	return 0;
}

static int scan_tasks(struct shim_threads *t, pid_t pid, struct shim_err *err)
{
	char path[64];
	DIR *d;
	struct dirent *de;
	int r = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return 0;	/* exited meanwhile */
	while ((de = readdir(d)) != NULL) {
		struct shim_thread *th;
		pid_t tid = (pid_t)atoi(de->d_name);

		if (tid <= 0)
			continue;
		th = find(t, tid);
		if (th) {
			th->seen = true;
			continue;
		}
		r = add(t, pid, tid, err);
		if (r)
			break;
	}
	closedir(d);
	return r;
}

int shim_threads_scan(struct shim_threads *t, struct shim_err *err)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int r = 0;

	if (!d)
		return shim_fail(err, errno, "opendir /proc");
	for (size_t i = 0; i < t->n; i++)
		t->v[i].seen = false;
	while ((de = readdir(d)) != NULL) {
		char path[64];
		struct stat st;
		pid_t pid = (pid_t)atoi(de->d_name);

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)pid);
		if (stat(path, &st) < 0 || st.st_ino != t->ns_ino || st.st_dev != t->ns_dev)
			continue;
		r = scan_tasks(t, pid, err);
		if (r)
			break;
	}
	closedir(d);
	/* Forget reported threads that are gone, so a reused tid is new. */
	for (size_t i = 0; i < t->n;) {
		if (t->v[i].fd < 0 && !t->v[i].seen)
			t->v[i] = t->v[--t->n];
		else
			i++;
	}
	return r;
}

void shim_threads_exited(struct shim_threads *t, pid_t tid)
{
	struct shim_thread *th = find(t, tid);

	if (!th || th->fd < 0)
		return;
	epoll_ctl(t->epfd, EPOLL_CTL_DEL, th->fd, NULL);
	close(th->fd);
	th->fd = -1;
	shim_event_thread_exit(t->events_fd, th->tid, th->pid);
}

void shim_threads_free(struct shim_threads *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].fd >= 0)
			close(t->v[i].fd);
	free(t->v);
	t->v = NULL;
	t->n = t->cap = 0;
}
