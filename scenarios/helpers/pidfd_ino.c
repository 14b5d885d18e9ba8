// SPDX-License-Identifier: GPL-2.0
/*
 * pidfs inode numbers start at RESERVED_PIDS + 1 (301), above the root
 * inode of the pseudo filesystem: pid 1's struct pid, the first one the
 * kernel allocates, gets 301, and no pidfd has a smaller number.
 * usage: pidfd_ino
 */
#include <ctype.h>
#include <dirent.h>

#include "pidfd_common.h"

/* RESERVED_PIDS in include/linux/threads.h, 6.1 and upstream alike. */
#define FIRST_PIDFS_INO 301

/* The live pids whose pidfd has an inode number below 301; -1 on error. */
static int count_low(uint64_t *lowest, pid_t *lowest_pid, int *seen)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int low = 0;

	if (!d)
		return -1;
	*lowest = UINT64_MAX;
	*seen = 0;
	while ((e = readdir(d))) {
		pid_t pid;
		uint64_t ino;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		pid = (pid_t)atoi(e->d_name);
		{
			AUTOCLOSE int fd = sys_pidfd_open(pid, 0);

			if (fd < 0)
				continue; /* exited meanwhile */
			ino = pf_ino(fd);
		}
		(*seen)++;
		low += ino < FIRST_PIDFS_INO;
		if (ino < *lowest) {
			*lowest = ino;
			*lowest_pid = pid;
		}
	}
	closedir(d);
	return low;
}

int main(void)
{
	struct tap t = { 0 };
	uint64_t ino = 0, lowest = 0;
	pid_t lowest_pid = 0;
	int seen = 0, low;

	pf_require_pidfs();
	tap_plan(&t, 2);
	{
		AUTOCLOSE int fd = sys_pidfd_open(1, 0);

		if (fd >= 0)
			ino = pf_ino(fd);
		tap_ok(&t, ino == FIRST_PIDFS_INO,
		       "pidfd of pid 1 (the first struct pid allocated) has inode %d = RESERVED_PIDS + 1 (got %llu%s%s)",
		       FIRST_PIDFS_INO, (unsigned long long)ino, fd < 0 ? ", pidfd_open: " : "",
		       fd < 0 ? strerrorname_np(errno) : "");
	}
	low = count_low(&lowest, &lowest_pid, &seen);
	tap_ok(&t, low == 0 && seen > 0,
	       "no live pid's pidfd has an inode number below %d (%d of %d below; lowest %llu, pid %d)",
	       FIRST_PIDFS_INO, low, seen, (unsigned long long)lowest, (int)lowest_pid);
	return tap_done(&t);
}
