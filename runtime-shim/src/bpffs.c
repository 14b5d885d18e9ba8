// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * BPF FS delegation.  The container opens the fs context in its user
 * namespace (so the instance belongs to it), the shim, holding
 * CAP_SYS_ADMIN in the initial user namespace, sets the delegate_*
 * options and creates the superblock; the container mounts it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include "bpffs.h"
#include "errname.h"
#include "kernel.h"
#include "mounts.h"

static const char *errname(int e)
{
	const char *n = shim_errno_name(e);

	if (e == 0)
		return "success";
	return n ? n : strerror(e);
}

int shim_bpf_token_probe(struct shim_err *why)
{
	/* union bpf_attr's token_create: { __u32 flags; __u32 bpffs_fd; } */
	struct {
		uint32_t flags;
		uint32_t bpffs_fd;
	} attr = { 0, (uint32_t)-1 };
	cleanup_fd int fsfd = -1;
	int r, e;

	/*
	 * A kernel without tokens does not know command 36: EINVAL.  With
	 * tokens, the bad fd is looked up first: EBADF.
	 */
	r = sys_bpf(SHIM_BPF_TOKEN_CREATE, &attr, sizeof(attr));
	e = r < 0 ? errno : 0;
	if (r >= 0)
		close(r);
	if (e != EBADF) {
		shim_fail(why, 0, "BPF_TOKEN_CREATE with fd -1: %s", errname(e));
		return 0;
	}
	/*
	 * Second opinion from BPF FS: it must reject an unknown delegate
	 * name (stock 6.1 silently accepts any unknown option).
	 */
	fsfd = sys_fsopen("bpf", SHIM_FSOPEN_CLOEXEC);
	if (fsfd < 0) {
		e = errno;
		shim_fail(why, 0, "fsopen(\"bpf\"): %s", errname(e));
		/* A kernel with tokens, but we may not make a BPF FS here. */
		return e == EPERM || e == EACCES ? -1 : 0;
	}
	r = sys_fsconfig(fsfd, SHIM_FSCONFIG_SET_STRING, "delegate_cmds",
			 "shim_probe_no_such_command", 0);
	if (r == 0 || errno != EINVAL) {
		shim_fail(why, 0, "fsconfig delegate_cmds=<unknown name>: %s",
			  r == 0 ? "accepted" : errname(errno));
		return 0;
	}
	shim_fail(why, 0, "BPF_TOKEN_CREATE: EBADF, delegate_cmds: EINVAL for an unknown name");
	return 1;
}

int shim_bpf_token_require(const struct shim_config *cfg, struct shim_err *why,
			   struct shim_err *err)
{
	const char *opt = "--bpf-delegate-*";
	int r = shim_bpf_token_probe(why);

	for (int k = SHIM_DELEG_NR - 1; k >= 0; k--)
		if (cfg->delegate[k])
			opt = shim_deleg_flag(k);
	if (r > 0)
		return 0;
	if (r == 0)
		return shim_fail(err, 0, "%s", SHIM_NO_BPF_TOKEN_MSG);
	/*
	 * Not the kernel: the shim lacks the privilege.  Say which call
	 * failed and how to get on, not "this kernel cannot".
	 */
	shim_fail(err, 0, "%s needs root: %s", opt, why->msg);
	return shim_fail_note(err, "this kernel has BPF tokens, but only a shim with CAP_SYS_ADMIN "
			      "in the initial user namespace can create a delegated BPF FS: "
			      "run it as root, or leave out the --bpf-delegate-* options");
}

int shim_delegation_resolve(const struct shim_config *cfg,
			    const struct shim_deleg_names *names,
			    struct shim_delegation *out, struct shim_err *err)
{
	memset(out, 0, sizeof(*out));
	for (int k = 0; k < SHIM_DELEG_NR; k++) {
		if (!cfg->delegate[k])
			continue;
		if (shim_delegate_resolve(names, k, cfg->delegate[k], &out->mask[k],
					  out->value[k], sizeof(out->value[k]), err))
			return -1;
		out->set[k] = true;
	}
	return 0;
}

/* Append what the kernel logged on the fs context, if anything. */
static void note_fc_log(int fsfd, struct shim_err *err)
{
	char buf[512], all[1024] = "";
	size_t off = 0;
	int flags = fcntl(fsfd, F_GETFL);

	if (flags < 0 || fcntl(fsfd, F_SETFL, flags | O_NONBLOCK) < 0)
		return;
	for (;;) {
		ssize_t n = read(fsfd, buf, sizeof(buf) - 1);

		if (n <= 0)
			break;
		buf[n] = '\0';
		if (n > 2 && buf[1] == ' ')
			memmove(buf, buf + 2, (size_t)n - 1);	/* drop "e " */
		snprintf(all + off, sizeof(all) - off, "%s%s", off ? "; " : "", buf);
		off = strlen(all);
	}
	if (off)
		shim_fail_note(err, "kernel says: %s", all);
}

int shim_bpffs_configure(int fsfd, const struct shim_delegation *d,
			 struct shim_err *err)
{
	for (int k = 0; k < SHIM_DELEG_NR; k++) {
		if (!d->set[k])
			continue;
		if (sys_fsconfig(fsfd, SHIM_FSCONFIG_SET_STRING, shim_deleg_option(k),
				 d->value[k], 0) == 0)
			continue;
		shim_fail(err, errno, "%s: fsconfig %s=%s", shim_deleg_flag(k),
			  shim_deleg_option(k), d->value[k]);
		note_fc_log(fsfd, err);
		if (err->errnum == EPERM)
			return shim_fail_note(err, "a non-empty delegate_* option needs CAP_SYS_ADMIN in "
					      "the initial user namespace: run the shim as root on the host, "
					      "not inside a user namespace");
		return -1;
	}
	if (sys_fsconfig(fsfd, SHIM_FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0) {
		shim_fail(err, errno, "fsconfig create bpf");
		note_fc_log(fsfd, err);
		return -1;
	}
	return 0;
}

int shim_bpffs_mount_at(int fsfd, int root_fd, const char *path,
			struct shim_err *err)
{
	cleanup_fd int target = -1;
	cleanup_fd int mfd = -1;

	/* Inside the rootfs only, missing directories made (mounts.c). */
	target = shim_open_dir_in_root(root_fd, path, err);
	if (target < 0)
		return shim_fail_wrap(err, "--bpf-mount %s", path);
	mfd = sys_fsmount(fsfd, SHIM_FSMOUNT_CLOEXEC, 0);
	if (mfd < 0)
		return shim_fail(err, errno, "fsmount bpf");
	if (sys_move_mount(mfd, "", target, "",
			   SHIM_MOVE_MOUNT_F_EMPTY_PATH | SHIM_MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return shim_fail(err, errno, "move_mount bpf to %s", path);
	return 0;
}

int shim_bpffs_mount(int fsfd, const char *path, struct shim_err *err)
{
	cleanup_fd int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (root < 0)
		return shim_fail(err, errno, "open /");
	return shim_bpffs_mount_at(fsfd, root, path, err);
}
