/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SHIM_MOUNTS_H
#define SHIM_MOUNTS_H

#include "shim.h"

/*
 * Inside the container's user and mount namespaces: make every mount
 * private, build the rootfs (proc, read-only sys, minimal dev, devpts,
 * tmp) and pivot_root into it.  rootfs is an absolute, resolved path.
 * no_pivot (--no-pivot, unsafe) moves it over "/" and chroots instead.
 */
int shim_setup_rootfs(const char *rootfs, enum shim_net net, bool no_pivot,
		      struct shim_err *err);

/* mkdir -p, for paths in the container after pivot_root. */
int shim_mkdir_p(const char *path, mode_t mode, struct shim_err *err);

#endif
