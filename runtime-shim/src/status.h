/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A child's end as an exit status, as a shell gives it: code, or 128+signal. */
#ifndef SHIM_STATUS_H
#define SHIM_STATUS_H

#include <signal.h>

/* From waitpid()'s status. */
int shim_exit_status(int wstatus);
/* From waitid()'s siginfo. */
int shim_wait_status(const siginfo_t *info);

#endif
