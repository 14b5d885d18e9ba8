// SPDX-License-Identifier: GPL-2.0
/*
 * pidfs: pidfd inodes (one per struct pid, numbers never reused), fstatfs
 * magic, the fdinfo Pid:/NSpid: lines, waitid(P_PIDFD) and setns() through
 * process and thread pidfds.
 * usage: pidfd_pidfs [PROCESSES]
 */
#include <sys/mount.h>

#include "pidfd_common.h"

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

struct uts_thread {
	int ready[2];
	int release[2];
	pid_t tid;
	int err;
};

/* A thread with a UTS namespace of its own. */
static void *uts_thread_main(void *arg)
{
	struct uts_thread *u = arg;
	char c = 0;

	u->tid = sys_gettid();
	if (unshare(CLONE_NEWUTS) || sethostname("pidfd-thread", 12))
		u->err = errno;
	if (write(u->ready[1], &c, 1) != 1)
		return NULL;
	while (read(u->release[0], &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

/* A process that exits at once; vfork() keeps thousands of them cheap. */
static __attribute__((noinline)) pid_t spawn_exiting(void)
{
	pid_t pid = vfork();

	if (!pid)
		_exit(0);
	return pid;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * COUNT processes, each pidfd's inode number distinct from all others.
 * The scenario lowers pid_max so that PIDs come round again: then a
 * number derived from the PID would repeat, and this shows that the
 * inode number is not.
 */
static int test_many(struct tap *t, int count)
{
	AUTOFREE uint64_t *inos = calloc((size_t)count, sizeof(*inos));
	AUTOFREE pid_t *pids = calloc((size_t)count, sizeof(*pids));
	int dups = 0, zero = 0, distinct = count ? 1 : 0;

	if (!inos || !pids)
		return -1;
	for (int i = 0; i < count; i++) {
		pid_t pid = spawn_exiting();

		if (pid < 0) {
			perror("vfork");
			return -1;
		}
		{
			AUTOCLOSE int fd = sys_pidfd_open(pid, 0);

			inos[i] = fd >= 0 ? pf_ino(fd) : 0;
			zero += !inos[i];
		}
		pids[i] = pid;
		pf_wait(pid);
	}
	qsort(inos, (size_t)count, sizeof(*inos), cmp_u64);
	for (int i = 1; i < count; i++)
		dups += inos[i] == inos[i - 1];
	qsort(pids, (size_t)count, sizeof(*pids), cmp_pid);
	for (int i = 1; i < count; i++)
		distinct += pids[i] != pids[i - 1];
	tap_ok(t, !dups && !zero,
	       "%d short-lived processes over %d PIDs: %d repeated inode numbers, %d without a pidfd", count,
	       distinct, dups, zero);
	tap_diag("inode numbers from %llu to %llu", (unsigned long long)inos[0],
		 (unsigned long long)inos[count - 1]);
	return 0;
}

int main(int argc, char **argv)
{
	int count = argc > 1 ? atoi(argv[1]) : 2500;
	struct tap t = { 0 };
	struct statfs sfs;
	struct stat st;
	AUTOCLOSE int self = -1, self2 = -1, self_thr = -1, sub = -1;
	struct pf_thread th;
	char path[64], buf[128], want[64];
	uint64_t ino;
	ssize_t n;
	int rc;

	pf_require_pidfs();
	pf_require_thread_pidfds();
	if (pf_thread_start(&th))
		return 1;

	tap_plan(&t, 20);
	self = sys_pidfd_open(getpid(), 0);
	tap_ok(&t, self >= 0 && !fstatfs(self, &sfs) && (unsigned long)sfs.f_type == PID_FS_MAGIC,
	       "fstatfs(pidfd) reports PID_FS_MAGIC");

	/* One inode per struct pid. */
	self2 = sys_pidfd_open(getpid(), 0);
	self_thr = sys_pidfd_open(getpid(), PIDFD_THREAD);
	sub = sys_pidfd_open(th.tid, PIDFD_THREAD);
	ino = pf_ino(self);
	tap_ok(&t, ino && ino == pf_ino(self2), "two pidfds of this process share one inode (%llu)",
	       (unsigned long long)ino);
	tap_ok(&t, ino == pf_ino(self_thr), "a PIDFD_THREAD pidfd of the leader shares the process pidfd's inode");
	tap_ok(&t, pf_ino(sub) && pf_ino(sub) != ino, "a sub-thread's pidfd has an inode of its own (%llu)",
	       (unsigned long long)pf_ino(sub));
	{
		struct stat a, b;

		fstat(self, &a);
		fstat(sub, &b);
		tap_ok(&t, a.st_dev == b.st_dev, "all pidfds live on one device (%#llx)", (unsigned long long)a.st_dev);
		tap_diag("st_mode %#o, st_nlink %lu, st_uid %u", a.st_mode, (unsigned long)a.st_nlink, a.st_uid);
	}
	{
		int release = -1;
		pid_t pid = pf_waiting_child(0, NULL, &release);
		AUTOCLOSE int cfd = pid > 0 ? sys_pidfd_open(pid, 0) : -1;
		uint64_t cino = cfd >= 0 ? pf_ino(cfd) : 0;

		tap_ok(&t, cino && cino != ino, "another process's pidfd has another inode (%llu)",
		       (unsigned long long)cino);
		close(cfd);
		cfd = sys_pidfd_open(pid, 0);
		tap_ok(&t, cfd >= 0 && pf_ino(cfd) == cino,
		       "after closing every pidfd of it, a new pidfd gets the same inode number");
		close(release);
		pf_wait(pid);
	}

	/* What userspace sees of the file. */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", self);
	n = readlink(path, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	tap_ok(&t, !strcmp(buf, "anon_inode:[pidfd]"), "/proc/self/fd link reads anon_inode:[pidfd] (got %s)", buf);
	rc = fchmod(self, 0600);
	tap_errno(&t, rc, EPERM, "fchmod() of a pidfd (the shared inode is immutable)");
	rc = fstat(self, &st);
	tap_ok(&t, !rc && !(st.st_mode & S_IFMT), "a pidfd's st_mode has no file type (%#o)", st.st_mode);

	/* fdinfo keeps Pid: and NSpid:. */
	{
		int release = -1;
		pid_t pid = pf_waiting_child(0, NULL, &release);
		AUTOCLOSE int cfd = pid > 0 ? sys_pidfd_open(pid, 0) : -1;
		char nspid[64];

		snprintf(want, sizeof(want), "%d", pid);
		tap_ok(&t, pf_fdinfo(cfd, "Pid", buf, sizeof(buf)) && !strcmp(buf, want) &&
				   pf_fdinfo(cfd, "NSpid", nspid, sizeof(nspid)) && !strcmp(nspid, want),
		       "fdinfo shows Pid: and NSpid: %s", want);
		close(release);
		pf_wait(pid);
		tap_ok(&t, pf_fdinfo(cfd, "Pid", buf, sizeof(buf)) && !strcmp(buf, "-1") &&
				   pf_fdinfo(cfd, "NSpid", nspid, sizeof(nspid)) && !strcmp(nspid, "-1"),
		       "after reaping, fdinfo shows Pid: -1 and NSpid: -1 (got %s / %s)", buf, nspid);
	}
	{
		int p[2], release[2];
		pid_t outer;
		AUTOCLOSE int cfd = -1;
		char nspid[64];

		/* unshare(CLONE_NEWPID) puts the next child into a new pid namespace. */
		if (pipe2(p, O_CLOEXEC) || pipe2(release, O_CLOEXEC))
			return 1;
		outer = fork();
		if (outer < 0)
			return 1;
		if (!outer) {
			pid_t inner;
			char c;

			/* Only the parent may hold the write end, or the read never ends. */
			close(release[1]);
			close(p[0]);
			if (unshare(CLONE_NEWPID))
				_exit(2);
			inner = fork();
			if (inner < 0)
				_exit(3);
			if (!inner) {
				while (read(release[0], &c, 1) < 0 && errno == EINTR)
					;
				_exit(0);
			}
			if (write(p[1], &inner, sizeof(inner)) != sizeof(inner))
				_exit(4);
			_exit(pf_wait(inner) == 0 ? 0 : 5);
		}
		close(p[1]);
		close(release[0]);
		{
			pid_t inner = 0;

			if (read(p[0], &inner, sizeof(inner)) != sizeof(inner))
				inner = -1;
			cfd = inner > 0 ? sys_pidfd_open(inner, 0) : -1;
			snprintf(want, sizeof(want), "%d\t1", inner);
			tap_ok(&t, pf_fdinfo(cfd, "NSpid", nspid, sizeof(nspid)) && !strcmp(nspid, want),
			       "a child in a new pid namespace: NSpid: shows both pids (got %s)",
			       cfd >= 0 ? nspid : pf_err(cfd));
		}
		close(release[1]);
		close(p[0]);
		pf_wait(outer);
	}

	/* waitid(P_PIDFD). */
	{
		pid_t pid = fork();
		AUTOCLOSE int cfd = -1;
		siginfo_t si = { 0 };

		if (pid < 0)
			return 1;
		if (!pid)
			_exit(7);
		cfd = sys_pidfd_open(pid, 0);
		rc = waitid(P_PIDFD, (id_t)cfd, &si, WEXITED);
		tap_ok(&t, !rc && si.si_pid == pid && si.si_code == CLD_EXITED && si.si_status == 7,
		       "waitid(P_PIDFD) reaps the child with its exit status (%s, status %d)", pf_err(rc), si.si_status);
		rc = waitid(P_PIDFD, (id_t)sub, &si, WEXITED | WNOHANG);
		tap_errno(&t, rc, ECHILD, "waitid(P_PIDFD) on a pidfd of one of our own threads");
	}

	/* setns() through pidfds. */
	{
		int release = -1;
		pid_t pid = pf_waiting_child(CLONE_NEWUTS, "pidfd-proc", &release);
		AUTOCLOSE int cfd = pid > 0 ? sys_pidfd_open(pid, 0) : -1;

		tap_ok(&t, cfd >= 0 && pf_setns_sees_hostname(cfd, CLONE_NEWUTS, "pidfd-proc", buf, sizeof(buf)),
		       "setns(process pidfd, CLONE_NEWUTS) enters the child's UTS namespace (%s)", buf);
		close(release);
		pf_wait(pid);
	}
	{
		struct uts_thread u = { .err = 0 };
		pthread_t ut;
		AUTOCLOSE int ufd = -1;
		char c;

		if (pipe2(u.ready, O_CLOEXEC) || pipe2(u.release, O_CLOEXEC) ||
		    pthread_create(&ut, NULL, uts_thread_main, &u) || read(u.ready[0], &c, 1) != 1)
			return 1;
		ufd = sys_pidfd_open(u.tid, PIDFD_THREAD);
		tap_ok(&t, !u.err && ufd >= 0 && pf_setns_sees_hostname(ufd, CLONE_NEWUTS, "pidfd-thread", buf, sizeof(buf)),
		       "setns(thread pidfd, CLONE_NEWUTS) enters that thread's own UTS namespace (%s)", buf);
		close(u.release[1]);
		pthread_join(ut, NULL);
		close(u.ready[0]);
		close(u.ready[1]);
		close(u.release[0]);
	}
	{
		struct utsname u;

		tap_ok(&t, !uname(&u) && strcmp(u.nodename, "pidfd-thread") && strcmp(u.nodename, "pidfd-proc"),
		       "this process kept its own hostname (%s)", u.nodename);
	}

	/* Inode numbers are not reused. */
	if (test_many(&t, count))
		return 1;
	{
		/* Every new pid gets a higher number than any so far. */
		pid_t pid = fork();
		AUTOCLOSE int cfd = -1;

		if (pid < 0)
			return 1;
		if (!pid)
			_exit(0);
		cfd = sys_pidfd_open(pid, 0);
		tap_ok(&t, cfd >= 0 && pf_ino(cfd) > pf_ino(sub) && pf_ino(cfd) > ino,
		       "a newer process has a higher inode number than older ones");
		pf_wait(pid);
	}

	pf_thread_stop(&th);
	return tap_done(&t);
}
