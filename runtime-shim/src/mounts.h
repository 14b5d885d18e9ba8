/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SHIM_MOUNTS_H
#define SHIM_MOUNTS_H

#include "shim.h"

/*
 * Inside the container's user and mount namespaces: make every mount
 * private, put the rootfs in place on target, the rootfs directory the
 * shim opened (*tree, the shim's idmapped copy of it, taken when >= 0,
 * else a recursive bind), build it (proc, read-only sys, minimal
 * dev, devpts, tmp) and pivot_root into it.  rootfs is an absolute,
 * resolved path.  no_pivot (--no-pivot, unsafe) moves it over "/" and
 * chroots instead.
 */
int shim_setup_rootfs(const char *rootfs, int target, int *tree, enum shim_net net,
		      bool no_pivot, struct shim_err *err);
/*
 * The two halves of shim_setup_rootfs: make every mount private and put
 * the rootfs in place (returns the new mount's root, or -1); then build
 * it below that root (taken and closed) and pivot into it.
 */
int shim_place_rootfs(const char *rootfs, int target, int *tree, struct shim_err *err);
int shim_build_rootfs(const char *rootfs, int root_fd, enum shim_net net, bool no_pivot,
		      struct shim_err *err);

/*
 * After a mount point of the rootfs could not be made (walk.h): how to
 * give the rootfs to the container's root, when that is why.
 */
void shim_note_rootfs_owner(struct shim_err *err);

#endif
