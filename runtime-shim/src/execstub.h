/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SHIM_EXECSTUB_H
#define SHIM_EXECSTUB_H

#include <stdint.h>

/*
 * The exec stub (stub/exec-stub.c): a small static program, embedded in
 * the shim, that the command's process executes from a sealed memfd of
 * the container's own, and that then executes the command.  Whatever
 * the command names as its interpreter through /proc/self/exe (a script's
 * "#!", an ELF's PT_INTERP) is therefore the stub's private copy, never
 * the shim's binary (CVE-2019-5736; SECURITY.md, /proc/self/exe).
 *
 * Its command line: SHIM_EXEC_STUB_NAME REPORT_FD FILE ARG...; it looks
 * FILE up as execvp(3) does in the PATH of its environment.  Should the
 * exec fail, it writes a struct shim_exec_failure to REPORT_FD, which it
 * makes close-on-exec first, so that a successful exec closes it.
 */
#define SHIM_EXEC_STUB_NAME "shim-exec-stub"

struct shim_exec_failure {
	int32_t step;		/* container.c's exec steps; the stub's is SHIM_EXEC_STEP_COMMAND */
	int32_t errnum;
};

/* The stub's own step numbers, after those of container.c. */
enum {
	SHIM_EXEC_STEP_COMMAND = 100,	/* the command's exec failed: errnum says why */
	SHIM_EXEC_STEP_USAGE = 101,	/* not started by the shim */
};

#ifndef SHIM_EXEC_STUB_FREESTANDING
#include "shim.h"

/* A sealed, executable memfd holding the stub; -1 with err set. */
int shim_exec_stub_open(struct shim_err *err);

/*
 * In the command's process: become argv[0] (looked up in envp's PATH)
 * through the stub in stub_fd.  Returns only when the stub could not be
 * executed, with errno set; the command's own failures reach report_fd.
 */
void shim_exec_stub_run(int stub_fd, int report_fd, char *const argv[], char *const envp[]);
#endif

#endif
