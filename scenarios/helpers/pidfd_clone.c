// SPDX-License-Identifier: GPL-2.0
/*
 * clone3() and clone() with CLONE_PIDFD | CLONE_THREAD: the pidfd refers to
 * the new thread, like pidfd_open(tid, PIDFD_THREAD).
 * usage: pidfd_clone
 */
#include <linux/sched.h>
#include <stdatomic.h>

#include "pidfd_common.h"

/* <sched.h> would clash with <linux/sched.h>; only clone() is needed from it. */
extern int clone(int (*fn)(void *), void *stack, int flags, void *arg, ...);

#define THREAD_FLAGS \
	(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM)
#define STACK_SIZE (256 * 1024)

/* What the parent and a raw thread share. The thread runs without its own
 * TLS, so it sticks to atomics and raw syscalls. */
struct shared {
	atomic_int tid;
	atomic_int go;
};

static int thread_fn(void *arg)
{
	struct shared *s = arg;
	struct timespec ts = { 0, 1000000 };

	atomic_store(&s->tid, (int)syscall(SYS_gettid));
	while (!atomic_load(&s->go))
		syscall(SYS_nanosleep, &ts, NULL);
	return 0;
}

/*
 * clone3() for a thread: the child starts on the new stack, calls fn(arg) and
 * exits with its return value. x86-64 only, like the guest.
 */
static long clone3_thread(struct clone_args *args, int (*fn)(void *), void *arg)
{
	register void *r12 __asm__("r12") = (void *)fn;
	register void *r13 __asm__("r13") = arg;
	long ret;

	__asm__ volatile("syscall\n\t"
			 "test %%rax, %%rax\n\t"
			 "jnz 1f\n\t"
			 "xor %%ebp, %%ebp\n\t"
			 "mov %%r13, %%rdi\n\t"
			 "call *%%r12\n\t"
			 "mov %%eax, %%edi\n\t"
			 "mov %[nr_exit], %%eax\n\t"
			 "syscall\n\t"
			 "hlt\n\t"
			 "1:\n\t"
			 : "=a"(ret)
			 : "0"((long)SYS_clone3), "D"(args), "S"(sizeof(*args)), "r"(r12), "r"(r13),
			   [nr_exit] "i"(SYS_exit)
			 : "rcx", "r11", "memory");
	return ret;
}

static long clone3_plain(struct clone_args *args)
{
	return syscall(SYS_clone3, args, sizeof(*args));
}

/* The thread checks shared by the clone3() and the clone() cases. */
static void check_thread(struct tap *t, const char *how, int pidfd, pid_t tid, struct shared *s)
{
	AUTOCLOSE int ofd = sys_pidfd_open(tid, PIDFD_THREAD);
	AUTOCLOSE int self = sys_pidfd_open(getpid(), 0);
	struct stat a, b;
	char buf[64], want[32];
	int r, fl = fcntl(pidfd, F_GETFL), fdfl = fcntl(pidfd, F_GETFD);

	snprintf(want, sizeof(want), "%d", tid);
	tap_ok(t, pf_fdinfo(pidfd, "Pid", buf, sizeof(buf)) && !strcmp(buf, want),
	       "%s: the pidfd's fdinfo Pid: is the new tid %s", how, want);
	tap_ok(t, fl >= 0 && (fl & PIDFD_THREAD) && fdfl >= 0 && (fdfl & FD_CLOEXEC),
	       "%s: a close-on-exec PIDFD_THREAD pidfd (F_GETFL %#o)", how, fl);
	tap_ok(t, ofd >= 0 && !fstat(pidfd, &a) && !fstat(ofd, &b) && a.st_ino == b.st_ino,
	       "%s: same inode as pidfd_open(tid, PIDFD_THREAD)", how);
	r = sys_pidfd_send_signal(pidfd, 0, NULL, 0);
	tap_ok(t, r == 0 && pf_poll(pidfd, 0) == 0, "%s: the live thread can be signalled, not readable (%s)", how,
	       pf_err(r));
	atomic_store(&s->go, 1);
	r = pf_poll(pidfd, PF_EVENT_MS);
	tap_ok(t, r > 0 && (r & POLLIN) && pf_poll(self, 0) == 0,
	       "%s: the pidfd fires when the thread exits, the process lives on (%s)", how,
	       pf_revents(r, buf, sizeof(buf)));
}

int main(void)
{
	struct tap t = { 0 };
	struct shared s = { 0 };
	AUTOFREE char *stack = aligned_alloc(64, STACK_SIZE);
	int pidfd = -1, ptid = -1;
	struct clone_args args;
	long tid;

	if (!stack)
		return 1;
	memset(&args, 0, sizeof(args));
	args.flags = THREAD_FLAGS | CLONE_PIDFD;
	args.pidfd = (uintptr_t)&pidfd;
	args.stack = (uintptr_t)stack;
	args.stack_size = STACK_SIZE;
	tid = clone3_thread(&args, thread_fn, &s);
	if (tid == -EINVAL)
		tap_skip_all("clone3(CLONE_PIDFD|CLONE_THREAD): EINVAL");

	tap_plan(&t, 16);
	tap_ok(&t, tid > 0 && pidfd >= 0, "clone3(CLONE_PIDFD|CLONE_THREAD) creates a thread (%ld) and a pidfd (%d)", tid,
	       pidfd);
	if (tid <= 0)
		return tap_done(&t);
	while (!atomic_load(&s.tid))
		pf_msleep(1);
	tap_ok(&t, atomic_load(&s.tid) == tid, "the new thread is in this thread group (tid %d)", atomic_load(&s.tid));
	check_thread(&t, "clone3", pidfd, (pid_t)tid, &s);
	close(pidfd);

	/* The legacy clone() returns the pidfd through the parent_tid pointer. */
	memset(&s, 0, sizeof(s));
	tid = clone(thread_fn, stack + STACK_SIZE, THREAD_FLAGS | CLONE_PIDFD, &s, &ptid, NULL, NULL);
	tap_ok(&t, tid > 0 && ptid >= 0, "clone(CLONE_PIDFD|CLONE_THREAD) creates a thread (%ld) and a pidfd (%d)", tid,
	       ptid);
	if (tid <= 0)
		return tap_done(&t);
	while (!atomic_load(&s.tid))
		pf_msleep(1);
	check_thread(&t, "clone", ptid, (pid_t)tid, &s);
	close(ptid);

	/* What stays refused. */
	memset(&args, 0, sizeof(args));
	args.flags = (THREAD_FLAGS & ~CLONE_SIGHAND & ~CLONE_VM) | CLONE_PIDFD;
	args.pidfd = (uintptr_t)&pidfd;
	errno = 0;
	tid = clone3_plain(&args);
	tap_ok(&t, tid < 0 && errno == EINVAL, "CLONE_PIDFD|CLONE_THREAD without CLONE_SIGHAND is EINVAL (%s)",
	       pf_err((int)tid));
	memset(&args, 0, sizeof(args));
	args.flags = THREAD_FLAGS | CLONE_PIDFD | CLONE_DETACHED;
	args.pidfd = (uintptr_t)&pidfd;
	args.stack = (uintptr_t)stack;
	args.stack_size = STACK_SIZE;
	errno = 0;
	tid = clone3_plain(&args);
	tap_ok(&t, tid < 0 && errno == EINVAL, "CLONE_PIDFD|CLONE_THREAD|CLONE_DETACHED is EINVAL (%s)",
	       pf_err((int)tid));
	memset(&args, 0, sizeof(args));
	args.flags = CLONE_PIDFD | CLONE_PARENT_SETTID;
	args.pidfd = (uintptr_t)&pidfd;
	args.parent_tid = (uintptr_t)&pidfd;
	errno = 0;
	tid = clone3_plain(&args);
	tap_ok(&t, tid < 0 && errno == EINVAL,
	       "clone3 with pidfd and parent_tid at the same address is EINVAL (%s)", pf_err((int)tid));
	return tap_done(&t);
}
