// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The container's file system view.  Runs in the container's init, in its
 * own mount namespace owned by its user namespace, so nothing here is ever
 * visible on the host.
 *
 * Every mount point in the rootfs is looked up below the rootfs
 * (walk.c: openat2 RESOLVE_IN_ROOT), created there when missing, and
 * mounted on through its fd: a symlink in the rootfs (whose owner, the container's
 * root, may have put it there in an earlier run) cannot send a mount or
 * a mkdir out of it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "cgroup.h"
#include "file.h"
#include "kernel.h"
#include "mounts.h"
#include "walk.h"

void shim_note_rootfs_owner(struct shim_err *err)
{
	if (err->errnum == EACCES || err->errnum == EPERM)
		shim_fail_note(err, "chown -R to the first outside IDs of --uid-map and --gid-map");
}

/* A mount point of the rootfs, opened (and made) below root_fd. */
static int open_in_rootfs(int root_fd, const char *path, struct shim_err *err)
{
	int fd = shim_walk_in_root(root_fd, path, SHIM_WALK_MKDIR, err);

	if (fd < 0) {
		shim_note_rootfs_owner(err);
		shim_fail_wrap(err, "rootfs %s", path);
	}
	return fd;
}

/*
 * mount(2) onto what the O_PATH fd at names ("/proc/self/fd/N"), not onto
 * a path looked up again; what is the container's path, for messages.
 */
static int mount_at(const char *src, int at, const char *what, const char *type,
		    unsigned long flags, const char *data, struct shim_err *err)
{
	char target[64];

	snprintf(target, sizeof(target), "/proc/self/fd/%d", at);
	if (mount(src, target, type, flags, data) < 0)
		return shim_fail(err, errno, "mount %s on %s (%s%s%s)", src ? src : "none",
				 what, type ? type : "bind", data ? ", " : "",
				 data ? data : "");
	return 0;
}

/* Mount a fresh instance of type on path of the rootfs. */
static int mount_fs(int root_fd, const char *src, const char *path, const char *type,
		    unsigned long flags, const char *data, struct shim_err *err)
{
	cleanup_fd int dir = open_in_rootfs(root_fd, path, err);

	if (dir < 0)
		return -1;
	return mount_at(src, dir, path, type, flags, data, err);
}

static int open_kernel_path(int root_fd, const char *path);

/*
 * Cover every mount the recursive bind of /sys carried (top is the
 * bind's root): an empty read-only tmpfs on each mount right below it.
 * The kernel locks them to the bind when the mount namespace is not the
 * host user namespace's, so they can be covered, not dropped.
 */
static int cover_sys_submounts(int root_fd, int top, struct shim_err *err)
{
	struct shim_mountinfo m, bind;
	cleanup_free char *text = NULL;
	cleanup_fd int fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	char line[2 * PATH_MAX + 256];
	struct statx stx;
	const char *p;
	size_t len;

	if (statx(top, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) < 0 || !(stx.stx_mask & STATX_MNT_ID))
		return shim_fail(err, errno ? errno : EOPNOTSUPP, "statx /sys: its mount ID");
	if (fd < 0 || shim_read_all(fd, 16 << 20, &text, &len, "/proc/self/mountinfo", err))
		return fd < 0 ? shim_fail(err, errno, "open /proc/self/mountinfo") : -1;
	bind.point[0] = '\0';
	for (p = text; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n')) {
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(p, "\n"), p);
		if (shim_mountinfo_parse(line, &m) == 0 && m.id == stx.stx_mnt_id)
			bind = m;
	}
	if (!bind.point[0])
		return shim_fail(err, ENOENT, "/sys: mount %llu is not in mountinfo",
				 (unsigned long long)stx.stx_mnt_id);
	for (p = text; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n')) {
		char path[PATH_MAX];
		cleanup_fd int at = -1;

		snprintf(line, sizeof(line), "%.*s", (int)strcspn(p, "\n"), p);
		if (shim_mountinfo_parse(line, &m) || m.parent != bind.id ||
		    strncmp(m.point, bind.point, strlen(bind.point)) != 0)
			continue;
		snprintf(path, sizeof(path), "/sys%s", m.point + strlen(bind.point));
		at = open_kernel_path(root_fd, path);
		if (at < 0)
			return shim_fail(err, errno, "cover the host's %s", path);
		if (mount_at("tmpfs", at, path, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
			     "mode=0555", err))
			return -1;
	}
	return 0;
}

/*
 * /sys without the host's mounts below it (cgroup hierarchies, debugfs,
 * tracefs, securityfs, its BPF FS), then at /sys/fs/cgroup a cgroup2 of
 * the container's cgroup namespace: read-only both, as podman mounts them.
 */
static int mount_sys(int root_fd, enum shim_net net, struct shim_err *err)
{
	struct shim_mount_attr attr = { .attr_set = SHIM_MOUNT_ATTR_RDONLY };
	cleanup_fd int dir = -1;
	cleanup_fd int top = -1;
	bool covered = false;

	/* A fresh sysfs needs a network namespace of our own. */
	if (net == SHIM_NET_NONE) {
		if (mount_fs(root_fd, "sysfs", "/sys", "sysfs",
			     MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY, NULL, err))
			return -1;
		goto cgroup;
	}
	dir = open_in_rootfs(root_fd, "/sys", err);
	if (dir < 0)
		return -1;
	/* Without root the host's mounts under /sys are locked to it: only a recursive bind takes it. */
	if (mount_at("/sys", dir, "/sys", "none", MS_BIND, NULL, err)) {
		if (err->errnum != EINVAL)
			return -1;
		memset(err, 0, sizeof(*err));
		if (mount_at("/sys", dir, "/sys", "none", MS_BIND | MS_REC, NULL, err))
			return -1;
		covered = true;
	}
	/* dir is the directory below the new mount: look again to reach it. */
	top = open_in_rootfs(root_fd, "/sys", err);
	if (top < 0 || (covered && cover_sys_submounts(root_fd, top, err)))
		return -1;
	if (sys_mount_setattr(top, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr) < 0)
		return shim_fail(err, errno, "mount_setattr /sys read-only");
cgroup:
	return mount_fs(root_fd, "cgroup2", "/sys/fs/cgroup", "cgroup2",
			MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY, NULL, err);
}

static int mount_dev(int root_fd, struct shim_err *err)
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
	static const struct {
		const char *name;
		const char *src;
		mode_t mode;
		const char *type;
		unsigned long flags;
		const char *data;
	} subdirs[] = {
		{ "pts", "devpts", 0755, "devpts", MS_NOSUID | MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620" },
		{ "shm", "shm", 01777, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=1777,size=65536k" },
	};
	cleanup_fd int dev = -1;
	char what[64];

	if (mount_fs(root_fd, "tmpfs", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC,
		     "mode=0755,size=65536", err))
		return -1;
	/* The new tmpfs: everything below is made in it, through its fd. */
	dev = open_in_rootfs(root_fd, "/dev", err);
	if (dev < 0)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(nodes); i++) {
		cleanup_fd int fd = -1;

		snprintf(what, sizeof(what), "/dev/%s", nodes[i]);
		fd = openat(dev, nodes[i], O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0)
			return shim_fail(err, errno, "create %s", what);
		if (mount_at(what, fd, what, "none", MS_BIND, NULL, err))
			return -1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(links); i++)
		if (symlinkat(links[i][0], dev, links[i][1]) < 0)
			return shim_fail(err, errno, "symlink /dev/%s", links[i][1]);
	for (size_t i = 0; i < ARRAY_SIZE(subdirs); i++) {
		cleanup_fd int fd = -1;

		snprintf(what, sizeof(what), "/dev/%s", subdirs[i].name);
		if (mkdirat(dev, subdirs[i].name, subdirs[i].mode) < 0)
			return shim_fail(err, errno, "mkdir %s", what);
		fd = openat(dev, subdirs[i].name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return shim_fail(err, errno, "open %s", what);
		if (mount_at(subdirs[i].src, fd, what, subdirs[i].type, subdirs[i].flags, subdirs[i].data, err))
			return -1;
	}
	return 0;
}

/*
 * What runc's and podman's default spec masks and makes read-only: the
 * OCI runtime-spec's maskedPaths and readonlyPaths as they fill them.
 */
static const char *const masked_paths[] = {
	"/proc/acpi", "/proc/asound", "/proc/kcore", "/proc/keys",
	"/proc/latency_stats", "/proc/timer_list", "/proc/timer_stats",
	"/proc/sched_debug", "/proc/scsi", "/sys/firmware",
	"/sys/devices/virtual/powercap",
};
static const char *const readonly_paths[] = {
	"/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger",
};

/*
 * An existing path of the fresh /proc or /sys below root_fd, not made
 * when missing (-1 with errno ENOENT then).  Their contents are the
 * kernel's, but the lookup stays in the root all the same.
 */
static int open_kernel_path(int root_fd, const char *path)
{
	struct shim_err lookup = { 0 };
	int fd = shim_walk_in_root(root_fd, path, 0, &lookup);

	if (fd < 0)
		errno = lookup.errnum;
	return fd;
}

/* A directory under an empty read-only tmpfs, a file under /dev/null. */
static int mask_path(int root_fd, const char *path, struct shim_err *err)
{
	cleanup_fd int fd = open_kernel_path(root_fd, path);
	struct stat st;

	if (fd < 0 && errno == ENOENT)
		return 0;	/* not in this kernel: nothing to hide */
	if (fd < 0 || fstat(fd, &st) < 0)
		return shim_fail(err, errno, "mask %s", path);
	if (S_ISDIR(st.st_mode))
		return mount_at("tmpfs", fd, path, "tmpfs",
				MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0555", err);
	return mount_at("/dev/null", fd, path, "none", MS_BIND, NULL, err);
}

/* A bind of path onto itself, then remounted read-only. */
static int readonly_path(int root_fd, const char *path, struct shim_err *err)
{
	cleanup_fd int fd = open_kernel_path(root_fd, path);
	cleanup_fd int top = -1;
	char src[64];

	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0)
		return shim_fail(err, errno, "read-only %s", path);
	snprintf(src, sizeof(src), "/proc/self/fd/%d", fd);
	if (mount_at(src, fd, path, "none", MS_BIND | MS_REC, NULL, err))
		return -1;
	/* fd is below the new mount: look again to reach it. */
	top = open_kernel_path(root_fd, path);
	if (top < 0)
		return shim_fail(err, errno, "read-only %s: open the bind mount", path);
	/* Source and type are ignored by a remount; valgrind wants strings all the same. */
	return mount_at("none", top, path, "none",
			MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
			NULL, err);
}

/*
 * Without CAP_SYS_ADMIN in its user namespace (not in the default set),
 * the command can neither unmount nor remount these (runc's wall).
 */
static int mask_kernel_paths(int root_fd, struct shim_err *err)
{
	for (size_t i = 0; i < ARRAY_SIZE(masked_paths); i++)
		if (mask_path(root_fd, masked_paths[i], err))
			return -1;
	for (size_t i = 0; i < ARRAY_SIZE(readonly_paths); i++)
		if (readonly_path(root_fd, readonly_paths[i], err))
			return -1;
	return 0;
}

/*
 * The rootfs on target, the directory the shim opened in our mount
 * namespace: its idmapped copy (tree), or a recursive bind of it.  Both
 * by descriptor, so that no directory above the rootfs has to be
 * crossed with the container's IDs.  Returns the new mount's root.
 */
static int mount_rootfs(const char *rootfs, int target, int *tree, struct shim_err *err)
{
	bool idmapped = *tree >= 0;
	cleanup_fd int copy = shim_steal_fd(tree);

	if (copy < 0) {
		copy = sys_open_tree(target, "", SHIM_OPEN_TREE_CLONE | SHIM_OPEN_TREE_CLOEXEC |
				     AT_EMPTY_PATH | AT_RECURSIVE);
		if (copy < 0 && errno == ENOSYS) {
			/*
			 * No open_tree (valgrind): a bind mount by path, which the
			 * container's IDs must be able to walk.
			 */
			if (mount(rootfs, rootfs, "none", MS_BIND | MS_REC, NULL) < 0)
				return shim_fail(err, errno, "bind mount %s", rootfs);
			copy = open(rootfs, O_PATH | O_DIRECTORY | O_CLOEXEC);
			if (copy < 0)
				return shim_fail(err, errno, "open %s", rootfs);
			return shim_steal_fd(&copy);
		}
		if (copy < 0)
			return shim_fail(err, errno, "open_tree %s (a recursive bind)", rootfs);
	}
	if (sys_move_mount(copy, "", target, "", SHIM_MOVE_MOUNT_F_EMPTY_PATH |
			   SHIM_MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return shim_fail(err, errno, "move_mount the %srootfs onto %s",
				 idmapped ? "idmapped " : "", rootfs);
	/* Attached now: its descriptor is the root of the mount just made. */
	return shim_steal_fd(&copy);
}

int shim_place_rootfs(const char *rootfs, int target, int *tree, struct shim_err *err)
{
	/* Nothing we do may propagate back to the host. */
	if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0)
		return shim_fail(err, errno, "make / private");
	return mount_rootfs(rootfs, target, tree, err);
}

int shim_setup_rootfs(const char *rootfs, int target, int *tree, enum shim_net net,
		      bool no_pivot, struct shim_err *err)
{
	int root = shim_place_rootfs(rootfs, target, tree, err);

	if (root < 0)
		return -1;
	return shim_build_rootfs(rootfs, root, net, no_pivot, err);
}

int shim_build_rootfs(const char *rootfs, int root_fd, enum shim_net net, bool no_pivot,
		      struct shim_err *err)
{
	cleanup_fd int root = root_fd;

	if (mount_fs(root, "proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL, err) ||
	    mount_sys(root, net, err) || mount_dev(root, err) ||
	    mount_fs(root, "tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777", err) ||
	    mask_kernel_paths(root, err))
		return -1;

	if (fchdir(root) < 0)
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
