// SPDX-License-Identifier: GPL-2.0
/*
 * pidfd_send_signal(): scope by kind of pidfd (thread or process), the
 * PIDFD_SIGNAL_* scope flags and the si_code of kernel-made siginfo.
 * usage: pidfd_signal
 */
#include "pidfd_common.h"

/* The SIGUSR1 handler reports (tid, si_code) on this fd: no globals needed. */
#define REC_FD 200

struct rec {
	pid_t tid;
	int code;
};

static void on_usr1(int sig, siginfo_t *si, void *uc)
{
	struct rec r = { .tid = sys_gettid(), .code = si->si_code };
	int saved = errno;

	(void)sig;
	(void)uc;
	if (write(REC_FD, &r, sizeof(r)) != sizeof(r))
		abort();
	errno = saved;
}

/* The next handler record, or tid 0 if none came in time. */
static struct rec next_rec(int rfd)
{
	struct rec r = { 0, 0 };

	if (pf_poll(rfd, PF_EVENT_MS) > 0 && read(rfd, &r, sizeof(r)) != sizeof(r))
		r.tid = 0;
	return r;
}

static void drain(int rfd)
{
	struct rec r;

	while (pf_poll(rfd, 50) > 0 && read(rfd, &r, sizeof(r)) == sizeof(r))
		;
}

static const char *code_name(int code)
{
	switch (code) {
	case SI_USER:
		return "SI_USER";
	case SI_TKILL:
		return "SI_TKILL";
	case SI_QUEUE:
		return "SI_QUEUE";
	default:
		return "other";
	}
}

/* Is @sig pending in the "Key:" mask (SigPnd/ShdPnd) of /proc/self/task/TID/status? */
static bool pending(pid_t tid, const char *key, int sig)
{
	char path[64], line[256];
	size_t klen = strlen(key);
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", tid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			unsigned long long mask = strtoull(line + klen + 1, NULL, 16);

			found = mask & (1ULL << (sig - 1));
			break;
		}
	}
	fclose(f);
	return found;
}

/* Take a blocked, shared-pending @sig off the process; true if it was there. */
static bool take(int sig)
{
	struct timespec ts = { 0, 0 };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	return sigtimedwait(&set, NULL, &ts) == sig;
}

/* Fork a child that waits for a signal in the process group @pgid (0: its own). */
static pid_t pgrp_child(pid_t pgid)
{
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		sigset_t none;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGTERM, SIG_DFL);
		if (pgid >= 0 && setpgid(0, pgid))
			_exit(2);
		for (;;)
			pause();
	}
	if (pgid >= 0)
		setpgid(pid, pgid ? pgid : pid);
	return pid;
}

int main(void)
{
	struct tap t = { 0 };
	struct pf_thread a, b;
	struct sigaction sa = { .sa_sigaction = on_usr1, .sa_flags = SA_SIGINFO | SA_RESTART };
	AUTOCLOSE int self = -1, self_thr = -1, afd = -1, bfd = -1;
	int recp[2], rc, sa2 = SIGUSR2, rt = SIGRTMIN + 1, rt2 = SIGRTMIN + 2;
	sigset_t block;
	siginfo_t info;
	struct rec r;

	pf_require_thread_pidfds();
	self = sys_pidfd_open(getpid(), 0);
	rc = sys_pidfd_send_signal(self, 0, NULL, PIDFD_SIGNAL_THREAD);
	if (rc < 0 && errno == EINVAL)
		tap_skip_all("pidfd_send_signal(PIDFD_SIGNAL_THREAD): EINVAL");

	if (pipe2(recp, O_CLOEXEC | O_NONBLOCK) || dup2(recp[1], REC_FD) != REC_FD) {
		perror("record pipe");
		return 1;
	}
	sigaction(SIGUSR1, &sa, NULL);
	/* Signals that must stay pending, so /proc shows where they were queued. */
	sigemptyset(&block);
	sigaddset(&block, sa2);
	sigaddset(&block, rt);
	sigaddset(&block, rt2);
	sigprocmask(SIG_BLOCK, &block, NULL);
	if (pf_thread_start(&a) || pf_thread_start(&b))
		return 1;
	afd = sys_pidfd_open(a.tid, PIDFD_THREAD);
	bfd = sys_pidfd_open(b.tid, PIDFD_THREAD);
	self_thr = sys_pidfd_open(getpid(), PIDFD_THREAD);
	if (afd < 0 || bfd < 0 || self_thr < 0) {
		perror("pidfd_open");
		return 1;
	}

	tap_plan(&t, 23);

	/* Thread pidfds: the handler runs in the targeted thread, si_code SI_TKILL. */
	rc = sys_pidfd_send_signal(afd, SIGUSR1, NULL, 0);
	r = next_rec(recp[0]);
	tap_ok(&t, rc == 0 && r.tid == a.tid && r.code == SI_TKILL,
	       "thread pidfd of thread A: handler ran in A (tid %d, want %d), si_code %s", r.tid, a.tid,
	       code_name(r.code));
	rc = sys_pidfd_send_signal(bfd, SIGUSR1, NULL, 0);
	r = next_rec(recp[0]);
	tap_ok(&t, rc == 0 && r.tid == b.tid && r.code == SI_TKILL,
	       "thread pidfd of thread B: handler ran in B (tid %d, want %d), si_code %s", r.tid, b.tid,
	       code_name(r.code));
	rc = sys_pidfd_send_signal(self_thr, SIGUSR1, NULL, 0);
	r = next_rec(recp[0]);
	tap_ok(&t, rc == 0 && r.tid == getpid() && r.code == SI_TKILL,
	       "PIDFD_THREAD pidfd of the leader: handler ran in the leader (tid %d), si_code %s", r.tid,
	       code_name(r.code));
	rc = sys_pidfd_send_signal(self, SIGUSR1, NULL, PIDFD_SIGNAL_THREAD);
	r = next_rec(recp[0]);
	tap_ok(&t, rc == 0 && r.tid == getpid() && r.code == SI_TKILL,
	       "process pidfd + PIDFD_SIGNAL_THREAD: handler ran in the leader (tid %d), si_code %s", r.tid,
	       code_name(r.code));

	/* Process-directed: si_code SI_USER. */
	rc = sys_pidfd_send_signal(self, SIGUSR1, NULL, 0);
	r = next_rec(recp[0]);
	tap_ok(&t, rc == 0 && r.tid && r.code == SI_USER, "process pidfd: si_code %s (tid %d)", code_name(r.code),
	       r.tid);
	rc = sys_pidfd_send_signal(afd, SIGUSR1, NULL, PIDFD_SIGNAL_THREAD_GROUP);
	r = next_rec(recp[0]);
	tap_ok(&t, rc == 0 && r.tid && r.code == SI_USER, "thread pidfd + PIDFD_SIGNAL_THREAD_GROUP: si_code %s",
	       code_name(r.code));
	drain(recp[0]);

	/* Where blocked signals are queued: the thread's own set or the shared one. */
	rc = sys_pidfd_send_signal(afd, rt, NULL, 0);
	tap_ok(&t, rc == 0 && pending(a.tid, "SigPnd", rt) && !pending(a.tid, "ShdPnd", rt),
	       "thread pidfd: queued on thread A alone (SigPnd), not shared");
	tap_ok(&t, !pending(b.tid, "SigPnd", rt) && !pending(getpid(), "SigPnd", rt),
	       "thread pidfd: not queued on B or on the leader");
	rc = sys_pidfd_send_signal(self, sa2, NULL, 0);
	tap_ok(&t, rc == 0 && pending(getpid(), "ShdPnd", sa2) && !pending(getpid(), "SigPnd", sa2) && take(sa2),
	       "process pidfd: queued on the thread group (ShdPnd)");
	rc = sys_pidfd_send_signal(bfd, sa2, NULL, PIDFD_SIGNAL_THREAD_GROUP);
	tap_ok(&t, rc == 0 && pending(b.tid, "ShdPnd", sa2) && !pending(b.tid, "SigPnd", sa2) && take(sa2),
	       "thread pidfd + PIDFD_SIGNAL_THREAD_GROUP: queued on the thread group (ShdPnd)");
	rc = sys_pidfd_send_signal(self, rt2, NULL, PIDFD_SIGNAL_THREAD);
	tap_ok(&t, rc == 0 && pending(getpid(), "SigPnd", rt2) && !pending(getpid(), "ShdPnd", rt2),
	       "process pidfd + PIDFD_SIGNAL_THREAD: queued on the leader thread alone (SigPnd)");
	sigemptyset(&block);
	sigaddset(&block, rt2);
	sigtimedwait(&block, NULL, &(struct timespec){ 0, 0 });

	/* Flags: at most one scope, nothing unknown; checked before the fd. */
	rc = sys_pidfd_send_signal(self, 0, NULL, 8);
	tap_errno(&t, rc, EINVAL, "unknown flag 8");
	rc = sys_pidfd_send_signal(self, 0, NULL, PIDFD_SIGNAL_THREAD | PIDFD_SIGNAL_THREAD_GROUP);
	tap_errno(&t, rc, EINVAL, "PIDFD_SIGNAL_THREAD | PIDFD_SIGNAL_THREAD_GROUP");
	rc = sys_pidfd_send_signal(self, 0, NULL, PIDFD_SIGNAL_THREAD_GROUP | PIDFD_SIGNAL_PROCESS_GROUP);
	tap_errno(&t, rc, EINVAL, "PIDFD_SIGNAL_THREAD_GROUP | PIDFD_SIGNAL_PROCESS_GROUP");
	rc = sys_pidfd_send_signal(-1, 0, NULL, PIDFD_SIGNAL_THREAD | PIDFD_SIGNAL_PROCESS_GROUP);
	tap_errno(&t, rc, EINVAL, "bad flags are refused before the fd is looked at (fd -1)");
	rc = sys_pidfd_send_signal(-1, 0, NULL, PIDFD_SIGNAL_THREAD);
	tap_errno(&t, rc, EBADF, "a good flag with fd -1");

	/* Process groups. */
	{
		pid_t g1 = pgrp_child(0), g2, g3;
		AUTOCLOSE int g1fd = -1, g3fd = -1;
		int s1, s2, s3;

		g2 = g1 > 0 ? pgrp_child(g1) : -1;
		g3 = pgrp_child(-1);
		g1fd = g1 > 0 ? sys_pidfd_open(g1, 0) : -1;
		g3fd = g3 > 0 ? sys_pidfd_open(g3, 0) : -1;
		/* Both sides call setpgid(); wait until the kernel shows it. */
		for (int i = 0; i < 500 && g2 > 0 && getpgid(g2) != g1; i++)
			pf_msleep(10);

		rc = g3fd >= 0 ? sys_pidfd_send_signal(g3fd, SIGTERM, NULL, PIDFD_SIGNAL_PROCESS_GROUP) : -1;
		tap_errno(&t, rc, ESRCH, "PIDFD_SIGNAL_PROCESS_GROUP on a process that leads no process group");
		rc = sys_pidfd_send_signal(afd, SIGTERM, NULL, PIDFD_SIGNAL_PROCESS_GROUP);
		tap_errno(&t, rc, ESRCH, "PIDFD_SIGNAL_PROCESS_GROUP on a thread pidfd of a non-leader thread");
		rc = g1fd >= 0 ? sys_pidfd_send_signal(g1fd, SIGTERM, NULL, PIDFD_SIGNAL_PROCESS_GROUP) : -1;
		s1 = g1 > 0 ? pf_wait(g1) : -1;
		s2 = g2 > 0 ? pf_wait(g2) : -1;
		tap_ok(&t, rc == 0 && WIFSIGNALED(s1) && WTERMSIG(s1) == SIGTERM && WIFSIGNALED(s2) &&
				   WTERMSIG(s2) == SIGTERM,
		       "PIDFD_SIGNAL_PROCESS_GROUP on the group leader kills both members (%s; %#x %#x)", pf_err(rc),
		       s1, s2);
		if (g3 > 0)
			kill(g3, SIGKILL);
		s3 = g3 > 0 ? pf_wait(g3) : -1;
		tap_ok(&t, WIFSIGNALED(s3) && WTERMSIG(s3) == SIGKILL,
		       "the process outside that group was not signalled (%#x)", s3);
	}

	/* Caller-made siginfo: own process yes, own process group no. */
	memset(&info, 0, sizeof(info));
	info.si_signo = SIGUSR1;
	info.si_code = SI_QUEUE;
	info.si_pid = getpid();
	rc = sys_pidfd_send_signal(self, SIGUSR1, &info, 0);
	r = next_rec(recp[0]);
	tap_ok(&t, rc == 0 && r.code == SI_QUEUE, "own siginfo (SI_QUEUE) to your own process is delivered (%s, %s)",
	       pf_err(rc), code_name(r.code));
	info.si_code = SI_USER;
	rc = sys_pidfd_send_signal(afd, SIGUSR1, &info, PIDFD_SIGNAL_THREAD);
	tap_errno(&t, rc, EPERM, "own siginfo with si_code SI_USER to another thread's struct pid");
	rc = sys_pidfd_send_signal(self, SIGUSR1, &info, PIDFD_SIGNAL_PROCESS_GROUP);
	tap_errno(&t, rc, EPERM, "own siginfo with si_code SI_USER and PIDFD_SIGNAL_PROCESS_GROUP on yourself");
	drain(recp[0]);

	pf_thread_stop(&a);
	pf_thread_stop(&b);
	return tap_done(&t);
}
