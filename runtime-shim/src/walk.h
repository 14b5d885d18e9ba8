/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one way the shim looks a path up below a container's root: the
 * rootfs setup (mounts.c) and the BPF FS mount point of shim run and of
 * the OCI hook (bpffs.c).
 */
#ifndef SHIM_WALK_H
#define SHIM_WALK_H

#include "shim.h"

/* Make what is missing (0755) as the caller; the result is a directory. */
#define SHIM_WALK_MKDIR 0x1

/*
 * Open (O_PATH) path below root_fd as if root_fd were "/".  Every
 * component is resolved inside the root (openat2 RESOLVE_IN_ROOT): "..",
 * absolute and relative symlinks all stay in it, as runc's and crun's
 * mount destinations do, and no magic link is followed.  Without openat2
 * (valgrind, Linux before 5.6) the walk goes one component at a time and
 * refuses ".." (EXDEV) and every symlink (ENOTDIR or ELOOP) instead.
 *
 * Without SHIM_WALK_MKDIR the last component may be of any type and is
 * not followed when it is a symlink; a missing one fails with ENOENT in
 * err->errnum.  err names the component that failed; callers add what
 * the path is for.
 */
int shim_walk_in_root(int root_fd, const char *path, unsigned int flags,
		      struct shim_err *err);

#endif
