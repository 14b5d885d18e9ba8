// SPDX-License-Identifier: GPL-2.0-or-later
/* The exec stub's copy and its exec (execstub.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "execstub.h"

/* The stub as the build made it (Makefile: SHIM_EXEC_STUB). */
__asm__(".section .rodata\n"
	".balign 8\n"
	"shim_exec_stub:\n"
	".incbin \"" SHIM_EXEC_STUB "\"\n"
	"shim_exec_stub_end:\n"
	".previous\n");
extern const char shim_exec_stub[], shim_exec_stub_end[];

#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif

#define STUB_SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)

int shim_exec_stub_open(struct shim_err *err)
{
	size_t size = (size_t)(shim_exec_stub_end - shim_exec_stub), off = 0;
	cleanup_fd int fd = -1;

	/*
	 * MFD_EXEC says what the memfd is for to a kernel that asks (6.3 and
	 * later, vm.memfd_noexec); an older one knows no such flag, and
	 * every memfd it makes is executable.
	 */
	fd = memfd_create(SHIM_EXEC_STUB_NAME, MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_EXEC);
	if (fd < 0 && errno == EINVAL)
		fd = memfd_create(SHIM_EXEC_STUB_NAME, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return shim_fail(err, errno, "memfd_create for the exec stub");
	while (off < size) {
		ssize_t n = write(fd, shim_exec_stub + off, size - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return shim_fail(err, n < 0 ? errno : EIO, "write the exec stub");
		off += (size_t)n;
	}
	if (fcntl(fd, F_ADD_SEALS, STUB_SEALS) < 0)
		return shim_fail(err, errno, "seal the exec stub");
	return shim_steal_fd(&fd);
}

void shim_exec_stub_run(int stub_fd, int report_fd, char *const argv[], char *const envp[])
{
	char fd_arg[16], stub_path[32], **stub_argv;
	size_t n = 0;
	int saved;

	while (argv[n])
		n++;
	stub_argv = calloc(n + 3, sizeof(*stub_argv));
	if (!stub_argv)
		return;
	snprintf(fd_arg, sizeof(fd_arg), "%d", report_fd);
	stub_argv[0] = (char *)SHIM_EXEC_STUB_NAME;
	stub_argv[1] = fd_arg;
	memcpy(stub_argv + 2, argv, (n + 1) * sizeof(*argv));
	/*
	 * Through the container's /proc, not execveat(AT_EMPTY_PATH): a
	 * seccomp profile that lets the command run allows execve, and
	 * valgrind, which cannot execute a descriptor, can execute a path.
	 * The stub makes report_fd close-on-exec again before it executes
	 * the command.
	 */
	snprintf(stub_path, sizeof(stub_path), "/proc/self/fd/%d", stub_fd);
	if (fcntl(report_fd, F_SETFD, 0) == 0) {
		execve(stub_path, stub_argv, envp);
		saved = errno;
		fcntl(report_fd, F_SETFD, FD_CLOEXEC);
		errno = saved;
	}
	free(stub_argv);
}
