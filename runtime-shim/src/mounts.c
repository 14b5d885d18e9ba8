// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The container's file system view.  Runs in the container's init, in its
 * own mount namespace owned by its user namespace, so nothing here is ever
 * visible on the host.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "kernel.h"
#include "mounts.h"

int shim_mkdir_p(const char *path, mode_t mode, struct shim_err *err)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(buf))
		return shim_fail(err, ENAMETOOLONG, "mkdir %s", path);
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; ; p++) {
		if (*p == '/' || *p == '\0') {
			char c = *p;

			*p = '\0';
			if (mkdir(buf, mode) < 0 && errno != EEXIST)
				return shim_fail(err, errno, "mkdir %s", buf);
			*p = c;
			if (c == '\0')
				break;
		}
	}
	return 0;
}

static int join(char *buf, size_t len, const char *root, const char *rel,
		struct shim_err *err)
{
	int n = snprintf(buf, len, "%s%s", root, rel);

	if (n < 0 || (size_t)n >= len)
		return shim_fail(err, ENAMETOOLONG, "path %s%s", root, rel);
	return 0;
}

static int ensure_dir(const char *root, const char *rel, char *out,
		      size_t len, struct shim_err *err)
{
	struct stat st;

	if (join(out, len, root, rel, err))
		return -1;
	if (lstat(out, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			return shim_fail(err, ENOTDIR, "rootfs %s", rel);
		return 0;
	}
	if (mkdir(out, 0755) < 0 && errno != EEXIST)
		return shim_fail(err, errno, "mkdir %s in the rootfs", rel),
		       shim_fail_note(err, "create it in the rootfs; the container's root cannot");
	return 0;
}

static int do_mount(const char *src, const char *dst, const char *type,
		    unsigned long flags, const char *data, struct shim_err *err)
{
	if (mount(src, dst, type, flags, data) < 0)
		return shim_fail(err, errno, "mount %s on %s (%s%s%s)", src ? src : "none",
				 dst, type ? type : "bind", data ? ", " : "",
				 data ? data : "");
	return 0;
}

static int mount_sys(const char *target, enum shim_net net,
		     struct shim_err *err)
{
	struct shim_mount_attr attr = { .attr_set = SHIM_MOUNT_ATTR_RDONLY };

	/* A fresh sysfs needs a network namespace of our own. */
	if (net == SHIM_NET_NONE)
		return do_mount("sysfs", target, "sysfs",
				MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY, NULL, err);
	if (do_mount("/sys", target, "none", MS_BIND | MS_REC, NULL, err))
		return -1;
	if (sys_mount_setattr(AT_FDCWD, target, AT_RECURSIVE, &attr) < 0)
		return shim_fail(err, errno, "mount_setattr %s read-only", target);
	return 0;
}

static int mount_dev(const char *root, struct shim_err *err)
{
	static const char *const nodes[] = {
		"null", "zero", "full", "random", "urandom", "tty",
	};
	static const char *const links[][2] = {
		{ "/proc/self/fd", "fd" },
		{ "/proc/self/fd/0", "stdin" },
		{ "/proc/self/fd/1", "stdout" },
		{ "/proc/self/fd/2", "stderr" },
		{ "pts/ptmx", "ptmx" },
	};
	char dev[PATH_MAX], path[PATH_MAX + 64], src[64];

	if (ensure_dir(root, "/dev", dev, sizeof(dev), err))
		return -1;
	if (do_mount("tmpfs", dev, "tmpfs", MS_NOSUID | MS_NOEXEC,
		     "mode=0755,size=65536", err))
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(nodes); i++) {
		int fd;

		snprintf(path, sizeof(path), "%s/%s", dev, nodes[i]);
		snprintf(src, sizeof(src), "/dev/%s", nodes[i]);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0)
			return shim_fail(err, errno, "create %s", path);
		close(fd);
		if (do_mount(src, path, "none", MS_BIND, NULL, err))
			return -1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(links); i++) {
		snprintf(path, sizeof(path), "%s/%s", dev, links[i][1]);
		if (symlink(links[i][0], path) < 0)
			return shim_fail(err, errno, "symlink %s", path);
	}
	snprintf(path, sizeof(path), "%s/pts", dev);
	if (mkdir(path, 0755) < 0)
		return shim_fail(err, errno, "mkdir %s", path);
	if (do_mount("devpts", path, "devpts", MS_NOSUID | MS_NOEXEC,
		     "newinstance,ptmxmode=0666,mode=0620", err))
		return -1;
	snprintf(path, sizeof(path), "%s/shm", dev);
	if (mkdir(path, 01777) < 0)
		return shim_fail(err, errno, "mkdir %s", path);
	if (do_mount("shm", path, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		     "mode=1777,size=65536k", err))
		return -1;
	return 0;
}

int shim_setup_rootfs(const char *rootfs, enum shim_net net, bool no_pivot,
		      struct shim_err *err)
{
	char path[PATH_MAX];

	/* Nothing we do may propagate back to the host. */
	if (do_mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL, err))
		return -1;
	if (do_mount(rootfs, rootfs, "none", MS_BIND | MS_REC, NULL, err))
		return -1;

	if (ensure_dir(rootfs, "/proc", path, sizeof(path), err) ||
	    do_mount("proc", path, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL, err))
		return -1;
	if (ensure_dir(rootfs, "/sys", path, sizeof(path), err) ||
	    mount_sys(path, net, err))
		return -1;
	if (mount_dev(rootfs, err))
		return -1;
	if (ensure_dir(rootfs, "/tmp", path, sizeof(path), err) ||
	    do_mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777", err))
		return -1;

	if (chdir(rootfs) < 0)
		return shim_fail(err, errno, "chdir %s", rootfs);
	if (no_pivot) {
		/*
		 * --no-pivot, documented as unsafe: the new root is moved over
		 * "/" and chrooted into, as runc --no-pivot does.  The moved
		 * mount is not locked to anything, so the container's root
		 * can unmount it and reach the mount below.
		 */
		if (mount(".", "/", "none", MS_MOVE, NULL) < 0)
			return shim_fail(err, errno, "--no-pivot: move %s onto /", rootfs);
		if (chroot(".") < 0)
			return shim_fail(err, errno, "--no-pivot: chroot %s", rootfs);
	} else {
		/*
		 * Stack the old root on top of the new one, then drop it.
		 * pivot_root passes the old root's lock on to the new one, so
		 * the container cannot unmount "/" to uncover the host's.
		 */
		if (sys_pivot_root(".", ".") < 0) {
			int e = errno;

			shim_fail(err, e, "pivot_root %s", rootfs);
			if (e == EINVAL)
				shim_fail_note(err, "is / the initial ramfs? pivot_root cannot leave it: "
					       "boot onto a real root (switch_root), or accept an "
					       "escapable root with --no-pivot");
			return -1;
		}
		if (umount2(".", MNT_DETACH) < 0)
			return shim_fail(err, errno, "detach the old root");
	}
	if (chdir("/") < 0)
		return shim_fail(err, errno, "chdir /");
	return 0;
}
