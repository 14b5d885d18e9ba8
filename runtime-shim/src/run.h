/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SHIM_RUN_H
#define SHIM_RUN_H

/* shim run ARGS... (argv[0] is "run").  Returns the exit status. */
int shim_run_main(int argc, char *const argv[]);

#endif
