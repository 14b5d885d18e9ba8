// SPDX-License-Identifier: GPL-2.0
/*
 * pidfs inodes are regular files whose type only stat hides: executing a
 * pidfd is refused by the noexec pidfs superblock (EACCES, no kernel
 * warning), and FIONREAD answers as for any regular file.
 * usage: pidfd_exec
 */
#include <sys/ioctl.h>

#include "pidfd_common.h"

/* TAINT_WARN: the kernel printed a WARN since boot. */
#define TAINT_WARN_BIT 9

static long read_taint(void)
{
	FILE *f = fopen("/proc/sys/kernel/tainted", "re");
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/*
 * Try to execute the pidfd in a child, either with execveat(AT_EMPTY_PATH)
 * or through /proc/self/fd. The child exits with the errno of the failed
 * exec; should the exec succeed, whatever ran exits with its own status.
 */
static int exec_errno(int pidfd, bool via_proc)
{
	char *const argv[] = { "pidfd", NULL };
	char *const envp[] = { NULL };
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		char path[64];

		if (via_proc) {
			snprintf(path, sizeof(path), "/proc/self/fd/%d", pidfd);
			execve(path, argv, envp);
		} else {
			syscall(SYS_execveat, pidfd, "", argv, envp, AT_EMPTY_PATH);
		}
		_exit(errno & 0xff);
	}
	status = pf_wait(pid);
	if (status < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int main(void)
{
	struct tap t = { 0 };
	AUTOCLOSE int fd = -1;
	struct statx stx;
	struct stat st;
	long taint_before, taint_after;
	int rc, n = -1, err;

	pf_require_pidfs();
	fd = sys_pidfd_open(getpid(), 0);
	if (fd < 0) {
		printf("1..1\nnot ok 1 - pidfd_open(getpid()): %s\n", strerrorname_np(errno));
		return 1;
	}
	tap_plan(&t, 6);

	rc = fstat(fd, &st);
	tap_ok(&t, !rc && st.st_mode == 0700, "fstat(pidfd): st_mode 0%o, as upstream: 0700, no file type (lsof)",
	       rc ? 0 : st.st_mode);
	rc = statx(fd, "", AT_EMPTY_PATH, STATX_TYPE | STATX_MODE, &stx);
	tap_ok(&t, !rc && stx.stx_mode == 0700, "statx(pidfd): stx_mode 0%o, as upstream: 0700",
	       rc ? 0 : stx.stx_mode);

	taint_before = read_taint();
	err = exec_errno(fd, false);
	tap_ok(&t, err == EACCES, "execveat(pidfd, \"\", AT_EMPTY_PATH) as root fails with EACCES (got %s)",
	       err < 0 ? "no exit status" : strerrorname_np(err));
	err = exec_errno(fd, true);
	tap_ok(&t, err == EACCES, "execve(/proc/self/fd/<pidfd>) as root fails with EACCES (got %s)",
	       err < 0 ? "no exit status" : strerrorname_np(err));
	taint_after = read_taint();
	tap_ok(&t, taint_before >= 0 && !(taint_before & (1L << TAINT_WARN_BIT)) &&
			   !(taint_after & (1L << TAINT_WARN_BIT)),
	       "executing a pidfd warns nowhere in the kernel (taint %ld before, %ld after; W is bit %d)",
	       taint_before, taint_after, TAINT_WARN_BIT);

	rc = ioctl(fd, FIONREAD, &n);
	tap_ok(&t, !rc && n == 0, "ioctl(pidfd, FIONREAD) answers 0 bytes, as for a regular file (%s, %d)",
	       pf_err(rc), n);
	return tap_done(&t);
}
