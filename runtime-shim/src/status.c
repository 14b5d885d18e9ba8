// SPDX-License-Identifier: GPL-2.0-or-later
/* Exit statuses of children (status.h). */
#include <sys/wait.h>

#include "shim.h"
#include "status.h"

int shim_exit_status(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return SHIM_EXIT_ERROR;
}

int shim_wait_status(const siginfo_t *info)
{
	switch (info->si_code) {
	case CLD_EXITED:
		return info->si_status;
	case CLD_KILLED:
	case CLD_DUMPED:
		return 128 + info->si_status;
	default:
		return SHIM_EXIT_ERROR;
	}
}
