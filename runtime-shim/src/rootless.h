/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the shim can do without root, and what to say when it cannot. */
#ifndef SHIM_ROOTLESS_H
#define SHIM_ROOTLESS_H

#include "shim.h"

/*
 * After writing /proc/PID/uid_map or gid_map failed (err set): when the
 * cause is a missing privilege, append what works without root.  which
 * is "uid" or "gid".  Returns -1.
 */
int shim_explain_idmap_failure(const struct shim_config *cfg,
			       const char *which, struct shim_err *err);

#endif
