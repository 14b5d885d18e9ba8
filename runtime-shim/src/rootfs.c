// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A rootfs the container's root does not own.  Images are laid out in
 * container IDs (root's files are uid 0 on disk), but the container's root
 * is a range of host IDs, for which such a tree is read-only.  As crun and
 * runc do for idmapped mounts, the shim, privileged over the host's mounts,
 * clones the rootfs into a detached mount idmapped with the container's
 * user namespace (on-disk ID k is container ID k) and hands it to the
 * container's init, which puts it where it would bind-mount the rootfs.
 * Nothing on disk changes.  A rootfs already given to the container's
 * range (chown -R) is used as it is.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "idmap.h"
#include "kernel.h"
#include "rootfs.h"

enum shim_rootfs_plan shim_rootfs_plan(const struct shim_config *cfg, uint32_t owner)
{
	uint32_t id;

	if (shim_idmap_from_host(&cfg->uid_map, owner, &id))
		return SHIM_ROOTFS_AS_IS;
	/* Idmapped, on-disk owner k is container ID k: its host ID, if any. */
	if (shim_idmap_to_host(&cfg->uid_map, owner, &id))
		return SHIM_ROOTFS_IDMAP;
	return SHIM_ROOTFS_FOREIGN;
}

void shim_rootfs_warning(const struct shim_config *cfg, const char *rootfs,
			 uint32_t owner, const char *why, struct shim_err *warn)
{
	uint32_t uid = 0, gid = 0;
	char hider[PATH_MAX];
	bool hidden = false;

	/* The host IDs the container's init runs as (container.c: become_root). */
	shim_idmap_to_host(&cfg->uid_map, shim_idmap_root(&cfg->uid_map), &uid);
	shim_idmap_to_host(&cfg->gid_map, shim_idmap_root(&cfg->gid_map), &gid);
	shim_rootfs_hidden_by(rootfs, &hidden, hider, sizeof(hider));
	shim_fail(warn, 0,
		  "warning: the rootfs %s belongs to host uid %u, not to the container's root "
		  "(host uid %u), %s%s; it stays read-only for the container's root. "
		  "To make it the container's: chown -R %u:%u %s",
		  rootfs, owner, uid,
		  why ? "and cannot be mounted idmapped: " :
			"and the container's ID maps do not include it even idmapped",
		  why ? why : "", uid, gid, rootfs);
	/* The chown alone would lead to the refusal of a reachable rootfs of the container's. */
	if (!hidden)
		shim_fail_note(warn, "then let only root cross a directory above it, as runc's "
			       "and podman's storage: a rootfs of the container's that other users "
			       "can reach is refused");
}

/* A detached copy of rootfs, idmapped with userns_fd and private; why says what failed. */
static int clone_idmapped(const char *rootfs, int userns_fd, struct shim_err *why)
{
	struct shim_mount_attr attr = {
		.attr_set = SHIM_MOUNT_ATTR_IDMAP,
		.userns_fd = (uint64_t)userns_fd,
		/*
		 * Private: a clone of a shared mount is in its peer group, and
		 * the container's mounts below its root would show on the host.
		 */
		.propagation = MS_PRIVATE,
	};
	cleanup_fd int tree = -1;

	tree = sys_open_tree(AT_FDCWD, rootfs,
			     SHIM_OPEN_TREE_CLONE | SHIM_OPEN_TREE_CLOEXEC | AT_RECURSIVE);
	if (tree < 0)
		return shim_fail(why, errno, "open_tree %s", rootfs);
	/* Recursive: every mount below the rootfs must be idmapped too, or none is. */
	if (sys_mount_setattr(tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr) < 0) {
		shim_fail(why, errno, "mount_setattr MOUNT_ATTR_IDMAP");
		if (why->errnum == EINVAL)
			shim_fail_note(why, "this kernel cannot idmap its file system or one "
				       "mounted below it; tmpfs, for one, only from Linux 6.3");
		else if (why->errnum == EPERM)
			shim_fail_note(why, "only root may mount it idmapped");
		return -1;
	}
	return shim_steal_fd(&tree);
}

bool shim_dir_hides(const struct stat *st)
{
	/*
	 * Only root may cross it: root's, with no search bit for its group
	 * or others.  With an ACL the group bits are its mask, which bounds
	 * every named entry, so the mode alone decides.
	 */
	return S_ISDIR(st->st_mode) && st->st_uid == 0 &&
	       !(st->st_mode & (S_IXGRP | S_IXOTH));
}

int shim_rootfs_hidden_by(const char *rootfs, bool *hidden, char *dir, size_t len)
{
	char path[PATH_MAX];
	size_t n = strlen(rootfs);

	*hidden = false;
	if (rootfs[0] != '/' || n >= sizeof(path))
		return -1;
	memcpy(path, rootfs, n + 1);
	/*
	 * Strict ancestors only: the container's root owns the rootfs's top
	 * directory and could open it up again with chmod.
	 */
	for (char *slash = strrchr(path, '/'); slash; slash = strrchr(path, '/')) {
		struct stat st;

		if (slash == path)
			slash[1] = '\0';	/* "/" itself */
		else
			*slash = '\0';
		if (stat(path, &st) < 0)
			return -1;
		if (shim_dir_hides(&st)) {
			snprintf(dir, len, "%s", path);
			*hidden = true;
			return 0;
		}
		if (slash == path)
			break;
	}
	return 0;
}

/*
 * A rootfs the container writes set-id files into, which other users
 * could reach on the host: a set-uid file its root made there would run,
 * for any of them, as the container's owner of it on disk, host root
 * (idmapped) or the container's host IDs (used as it is), and with those
 * IDs a user could write into whatever else they own.  The refusal names
 * the one fix that every check accepts: a root's directory closed to
 * group and others above it.
 */
static int refuse_reachable(const char *rootfs, const char *whose, struct shim_err *err)
{
	char parent[PATH_MAX];
	struct stat st;
	char *slash;

	snprintf(parent, sizeof(parent), "%s", rootfs);
	slash = strrchr(parent, '/');
	if (slash == parent)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	shim_fail(err, EPERM, "--rootfs %s: %s; other users can reach it, so a set-uid file "
		  "the container's root made there would let them act as that owner", rootfs, whose);
	if (strcmp(parent, "/") != 0 && stat(parent, &st) == 0 && !(st.st_mode & S_ISVTX)) {
		char owner[PATH_MAX + 16] = "";

		if (st.st_uid != 0)
			snprintf(owner, sizeof(owner), "chown root %s && ", parent);
		return shim_fail_note(err, "let only root enter the directory above it: %schmod go-x %s",
				      owner, parent);
	}
	return shim_fail_note(err, "move it below a directory only root can enter: "
			      "mkdir -m 0700 /var/lib/shim && mv %s /var/lib/shim/", rootfs);
}

/* 0 when a root's directory closed to others is above rootfs; else the refusal. */
static int require_hidden(const struct shim_config *cfg, const char *rootfs, const char *whose,
			  struct shim_err *err)
{
	char hider[PATH_MAX];
	bool hidden;

	if (shim_rootfs_hidden_by(rootfs, &hidden, hider, sizeof(hider)) || !hidden)
		return refuse_reachable(rootfs, whose, err);
	shim_note(&(struct shim_voice){ "shim", cfg->verbose },
		  "only root can cross %s, above the rootfs", hider);
	return 0;
}

int shim_rootfs_for_init(const struct shim_config *cfg, const char *rootfs,
			 pid_t pid, int *target, int *tree, struct shim_err *err)
{
	struct shim_err why = { 0 }, warn = { 0 };
	cleanup_fd int userns = -1;
	cleanup_fd int init_root = -1;
	char path[PATH_MAX + 64];
	enum shim_rootfs_plan plan;
	struct stat st;

	*tree = -1;
	*target = -1;
	/*
	 * The rootfs directory as the init's mount namespace has it, opened
	 * with the shim's credentials: the init, already the container's
	 * host IDs, mounts on it by this descriptor, so the rootfs may lie
	 * below directories only the caller can cross (0700, as runc's and
	 * podman's storage).  The init is our unreaped child: its PID cannot
	 * name another process.
	 */
	snprintf(path, sizeof(path), "/proc/%d/root", (int)pid);
	init_root = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (init_root < 0)
		return shim_fail(err, errno, "open %s", path);
	*target = openat(init_root, rootfs + 1, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (*target < 0)
		return shim_fail(err, errno, "--rootfs %s: open in the container's mount namespace",
				 rootfs);
	if (fstat(*target, &st) < 0)
		return shim_fail(err, errno, "--rootfs %s", rootfs);
	plan = shim_rootfs_plan(cfg, st.st_uid);
	if (plan == SHIM_ROOTFS_AS_IS) {
		char whose[128];

		/* The rootless form: the container's root is the caller, as its files are. */
		if (st.st_uid == geteuid())
			return 0;
		snprintf(whose, sizeof(whose), "the container's own (host uid %u), used as it is",
			 (unsigned int)st.st_uid);
		return require_hidden(cfg, rootfs, whose, err);
	}
	if (plan == SHIM_ROOTFS_IDMAP) {
		snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
		userns = open(path, O_RDONLY | O_CLOEXEC);
		if (userns < 0)
			shim_fail(&why, errno, "open %s", path);
		else
			*tree = clone_idmapped(rootfs, userns, &why);
		if (*tree >= 0) {
			/* Refused only where an idmapped copy would indeed be given. */
			if (require_hidden(cfg, rootfs, "host root's, so it would be mounted idmapped "
					   "and what the container's root makes in it would be host "
					   "root's on disk", err)) {
				shim_closep(tree);
				return -1;
			}
			shim_note(&(struct shim_voice){ "shim", cfg->verbose },
				  "the rootfs belongs to host uid %u: mounted idmapped, its on-disk "
				  "IDs are the container's", (unsigned int)st.st_uid);
			return 0;
		}
	}
	/* A warning: the container still runs, on the rootfs as it is. */
	shim_rootfs_warning(cfg, rootfs, st.st_uid, plan == SHIM_ROOTFS_IDMAP ? why.msg : NULL,
			    &warn);
	shim_err_print(&warn);
	return 0;
}
