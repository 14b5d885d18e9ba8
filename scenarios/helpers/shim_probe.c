// SPDX-License-Identifier: GPL-2.0
/*
 * Feature probes for the shim scenarios.  Exit 0 if the kernel has it,
 * 1 if not, and print what was probed and what came back.
 *   shim_probe token         BPF_TOKEN_CREATE with fd -1: EBADF if known, EINVAL if not
 *   shim_probe pidfd-thread  pidfd_open(self, PIDFD_THREAD)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "token") == 0) {
		struct {
			unsigned int flags;
			unsigned int bpffs_fd;
		} attr = { 0, (unsigned int)-1 };
		long r = syscall(__NR_bpf, 36, &attr, sizeof(attr));
		int e = r < 0 ? errno : 0;

		printf("BPF_TOKEN_CREATE: %s\n", e ? strerrorname_np(e) : "success");
		return e == EBADF ? 0 : 1;
	}
	if (argc == 2 && strcmp(argv[1], "pidfd-thread") == 0) {
		long r = syscall(__NR_pidfd_open, getpid(), O_EXCL);

		printf("pidfd_open(PIDFD_THREAD): %s\n", r < 0 ? strerrorname_np(errno) : "success");
		return r < 0 ? 1 : 0;
	}
	fprintf(stderr, "usage: shim_probe token|pidfd-thread\n");
	return 2;
}
