// SPDX-License-Identifier: GPL-2.0-or-later
/* Path look-ups that cannot leave a root (walk.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include "kernel.h"
#include "walk.h"

/*
 * One step: prefix resolved from the root again, so that a symlink
 * planted between two steps cannot lead out either.  Without openat2,
 * name is opened from dir, the directory of the step before; O_NOFOLLOW
 * gives a symlink itself, which O_DIRECTORY then refuses.
 */
static int open_step(int root_fd, int dir, const char *prefix, const char *name,
		     int oflags, bool *no_openat2)
{
	struct shim_open_how how = {
		.flags = (uint64_t)(O_PATH | O_CLOEXEC | oflags),
		.resolve = SHIM_RESOLVE_IN_ROOT | SHIM_RESOLVE_NO_MAGICLINKS,
	};

	if (!*no_openat2) {
		int fd = sys_openat2(root_fd, prefix, &how);

		if (fd >= 0 || errno != ENOSYS)
			return fd;
		*no_openat2 = true;
	}
	if (strcmp(name, "..") == 0) {
		errno = EXDEV;
		return -1;
	}
	return openat(dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC | oflags);
}

int shim_walk_in_root(int root_fd, const char *path, unsigned int flags,
		      struct shim_err *err)
{
	cleanup_fd int dir = -1;
	char prefix[PATH_MAX], name[NAME_MAX + 1];
	const char *p = path;
	bool no_openat2 = false;

	if (strlen(path) >= sizeof(prefix))
		return shim_fail(err, ENAMETOOLONG, "path");
	dir = open_step(root_fd, root_fd, ".", ".", O_DIRECTORY, &no_openat2);
	if (dir < 0)
		return shim_fail(err, errno, "open the root");
	for (;;) {
		const char *e;
		bool last;
		int oflags, fd;

		while (*p == '/')
			p++;
		if (*p == '\0')
			break;
		e = strchrnul(p, '/');
		if ((size_t)(e - p) > NAME_MAX)
			return shim_fail(err, ENAMETOOLONG, "path");
		memcpy(prefix, path, (size_t)(e - path));
		prefix[e - path] = '\0';
		memcpy(name, p, (size_t)(e - p));
		name[e - p] = '\0';
		last = e[strspn(e, "/")] == '\0';
		oflags = !last || (flags & SHIM_WALK_MKDIR) ? O_DIRECTORY : O_NOFOLLOW;
		fd = open_step(root_fd, dir, prefix, name, oflags, &no_openat2);
		if (fd < 0 && errno == ENOENT && (flags & SHIM_WALK_MKDIR)) {
			/* Made in the directory just resolved, then looked up again. */
			if (mkdirat(dir, name, 0755) < 0 && errno != EEXIST) {
				shim_fail(err, errno, "mkdir %s", prefix);
				if (err->errnum == EACCES || err->errnum == EPERM)
					shim_fail_note(err, "the container's root may not write there: "
						       "create %s in the rootfs, or give the rootfs to the "
						       "container's root", prefix);
				return -1;
			}
			fd = open_step(root_fd, dir, prefix, name, oflags, &no_openat2);
		}
		if (fd < 0)
			return shim_fail(err, errno, "open %s", prefix);
		close(dir);
		dir = fd;
		p = e;
	}
	return shim_steal_fd(&dir);
}
