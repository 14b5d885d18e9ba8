/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SHIM_SELFCLONE_H
#define SHIM_SELFCLONE_H

#include "shim.h"

/* Is the running executable a sealed memfd (the shim's copy)? */
bool shim_running_sealed(void);

/*
 * Unless already running from it: copy the shim's executable into a
 * sealed memfd and execute that with the same argv.  Returns 0 when the
 * caller should go on (it is the copy, or the copy cannot be executed:
 * a note says so), -1 with err set when no copy could be made.
 */
int shim_reexec_sealed(char *const argv[], struct shim_err *err);

#endif
