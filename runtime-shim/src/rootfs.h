/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A rootfs the container's root does not own: mounted idmapped, or a warning. */
#ifndef SHIM_ROOTFS_H
#define SHIM_ROOTFS_H

#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "shim.h"

enum shim_rootfs_plan {
	SHIM_ROOTFS_AS_IS,	/* its owner is a host ID of the maps: the container's own */
	SHIM_ROOTFS_IDMAP,	/* its owner, as a container ID, is mapped: mount it idmapped */
	SHIM_ROOTFS_FOREIGN,	/* neither: idmapping cannot give it to the container */
};

/* What to do with a rootfs whose top directory host uid owner owns. */
enum shim_rootfs_plan shim_rootfs_plan(const struct shim_config *cfg, uint32_t owner);

/*
 * The warning for a rootfs left as it is although not the container's:
 * why (NULL for SHIM_ROOTFS_FOREIGN: the maps cannot reach its owner),
 * and the chown -R that makes it the container root's, recorded in warn
 * (the shim prints it with shim_err_print).
 */
void shim_rootfs_warning(const struct shim_config *cfg, const char *rootfs,
			 uint32_t owner, const char *why, struct shim_err *warn);

/* 1 if only root may cross the directory st describes. */
bool shim_dir_hides(const struct stat *st);
/*
 * Does a strict ancestor of the absolute path rootfs hide it from every
 * user but root?  0 with the answer in *hidden (dir gets the ancestor),
 * -1 when one cannot be read.
 */
int shim_rootfs_hidden_by(const char *rootfs, bool *hidden, char *dir, size_t len);

/*
 * The shim's side, once the maps of the container's user namespace (of
 * its init, pid) are written.  *target is the rootfs directory in the
 * init's mount namespace, opened with the shim's credentials: the init
 * mounts the rootfs on it by this descriptor.  *tree is -1 when the
 * rootfs is used as it is; else a detached, private copy of the rootfs
 * mounted idmapped with that user namespace, for the init to put in
 * place of its bind mount.  A host root's rootfs that other users can
 * reach is refused (a set-uid file the container made would be theirs to
 * run as host root).  A rootfs that is not the container's and cannot be
 * idmapped gets one warning on stderr and *tree -1.
 */
int shim_rootfs_for_init(const struct shim_config *cfg, const char *rootfs,
			 pid_t pid, int *target, int *tree, struct shim_err *err);

#endif
