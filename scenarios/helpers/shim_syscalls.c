// SPDX-License-Identifier: GPL-2.0
/*
 * Attempts, from inside a container, the calls the shim's default seccomp
 * profile must refuse, and the ones a normal workload needs.
 *   shim_syscalls deny     one line per refused call: "NAME: ERRNAME" (or "success")
 *   shim_syscalls allow    the same for calls that must work, and a thread
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static void show(const char *name, long r)
{
	printf("%s: %s\n", name, r < 0 ? strerrorname_np(errno) : "success");
}

/*
 * Each call runs in a child of its own, so one that succeeds against the
 * design (a new user namespace, a tracer) cannot change the next.
 */
static void attempt(const char *name, long nr, long a0, long a1, long a2,
		    long a3, long a4)
{
	int p[2], status;
	int e = 0;
	pid_t pid;

	if (pipe(p) < 0) {
		perror("pipe");
		return;
	}
	pid = fork();
	if (pid == 0) {
		long r = syscall(nr, a0, a1, a2, a3, a4);

		e = r < 0 ? errno : 0;
		if (write(p[1], &e, sizeof(e)) != sizeof(e))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	if (pid < 0 || read(p[0], &e, sizeof(e)) != sizeof(e)) {
		printf("%s: no answer\n", name);
	} else {
		errno = e;
		show(name, e ? -1 : 0);
	}
	close(p[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
}

static void *worker(void *arg)
{
	return arg;
}

int main(int argc, char **argv)
{
	static uint32_t uring_params[30];
	static struct iovec iov;
	static char buf[8];
	long self = getpid();

	if (argc == 2 && strcmp(argv[1], "deny") == 0) {
		iov.iov_base = buf;
		iov.iov_len = sizeof(buf);
		attempt("unshare(CLONE_NEWUSER)", SYS_unshare, CLONE_NEWUSER, 0, 0, 0, 0);
		attempt("clone(CLONE_NEWUSER)", SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
		attempt("ptrace(PTRACE_TRACEME)", SYS_ptrace, PTRACE_TRACEME, 0, 0, 0, 0);
		attempt("process_vm_readv", SYS_process_vm_readv, self, (long)&iov, 1, (long)&iov, 1);
		attempt("kcmp", SYS_kcmp, self, self, 0 /* KCMP_FILE */, 0, 0);
		attempt("io_uring_setup", SYS_io_uring_setup, 1, (long)uring_params, 0, 0, 0);
		attempt("personality(PER_BSD)", SYS_personality, 0x0006, 0, 0, 0, 0);
		attempt("fsopen", SYS_fsopen, (long)"tmpfs", 0, 0, 0, 0);
		attempt("setns", SYS_setns, open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC), 0, 0, 0, 0);
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "allow") == 0) {
		pthread_t t;
		void *ret = NULL;

		attempt("personality(0xffffffff)", SYS_personality, 0xffffffff, 0, 0, 0, 0);
		attempt("unshare(CLONE_FS)", SYS_unshare, CLONE_FS, 0, 0, 0, 0);
		attempt("getpid", SYS_getpid, 0, 0, 0, 0, 0);
		errno = pthread_create(&t, NULL, worker, (void *)1);
		if (errno == 0)
			errno = pthread_join(t, &ret);
		show("pthread_create", errno || ret != (void *)1 ? -1 : 0);
		return 0;
	}
	fprintf(stderr, "usage: shim_syscalls deny|allow\n");
	return 2;
}
