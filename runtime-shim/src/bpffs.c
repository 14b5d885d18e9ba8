// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * BPF FS delegation, the one core of shim run and the OCI hook.  The
 * container opens the fs context in its user namespace (so the instance
 * belongs to it); the privileged side, holding CAP_SYS_ADMIN in the
 * initial user namespace, sets the delegate_* options, creates the
 * superblock and mounts it; the container moves the mount below its root.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include "bpffs.h"
#include "btf.h"
#include "errname.h"
#include "kernel.h"
#include "sync.h"
#include "walk.h"

static const char *errname(int e)
{
	const char *n = shim_errno_name(e);

	if (e == 0)
		return "success";
	return n ? n : strerror(e);
}

int shim_bpf_token_probe(bool *supported, struct shim_err *why)
{
	/* union bpf_attr's token_create: { __u32 flags; __u32 bpffs_fd; } */
	struct {
		uint32_t flags;
		uint32_t bpffs_fd;
	} attr = { 0, (uint32_t)-1 };
	cleanup_fd int fsfd = -1;
	int r, e;

	*supported = false;
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
	*supported = true;
	return 0;
}

int shim_bpf_token_require(const struct shim_config *cfg, struct shim_err *why,
			   struct shim_err *err)
{
	const char *opt = "--bpf-delegate-*";
	bool supported;
	int r = shim_bpf_token_probe(&supported, why);

	for (int k = SHIM_DELEG_NR - 1; k >= 0; k--)
		if (cfg->delegate[k])
			opt = shim_deleg_flag(k);
	if (r == 0 && supported)
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

void shim_delegation_names(struct shim_deleg_names *names, const struct shim_voice *v)
{
	shim_deleg_names_load("/sys/kernel/btf/vmlinux", names);
	if (names->builtin)
		shim_warn(v, "note: checking delegation names against %s", names->source);
}

int shim_delegation_set(struct shim_delegation *d, const struct shim_deleg_names *names,
			int kind, const char *value, const char *what, struct shim_err *err)
{
	if (shim_delegate_resolve(names, kind, value, what, &d->mask[kind], d->value[kind],
				  sizeof(d->value[kind]), err))
		return -1;
	d->set[kind] = true;
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

static int configure(int fsfd, const struct shim_delegation *d, struct shim_err *err)
{
	for (int k = 0; k < SHIM_DELEG_NR; k++) {
		if (!d->set[k])
			continue;
		if (sys_fsconfig(fsfd, SHIM_FSCONFIG_SET_STRING, shim_deleg_option(k),
				 d->value[k], 0) == 0)
			continue;
		shim_fail(err, errno, "fsconfig %s=%s", shim_deleg_option(k), d->value[k]);
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

int shim_bpffs_grant(int sock, int fsfd, const struct shim_delegation *d,
		     struct shim_err *err)
{
	cleanup_fd int mfd = -1;
	struct shim_err ignore;

	if (configure(fsfd, d, err))
		goto refuse;
	mfd = sys_fsmount(fsfd, SHIM_FSMOUNT_CLOEXEC, SHIM_BPFFS_MOUNT_ATTRS);
	if (mfd < 0) {
		shim_fail(err, errno, "fsmount bpf");
		goto refuse;
	}
	/* Ours closes on return: if the other side fails, nothing stays mounted. */
	return shim_msg_send(sock, SHIM_MSG_BPF_ACK, 0, NULL, mfd, err);
refuse:
	shim_msg_send(sock, SHIM_MSG_BPF_ACK, 1, NULL, -1, &ignore);
	return -1;
}

int shim_bpffs_path_check(const char *path, const char *what, struct shim_err *err)
{
	const char *p = path;

	if (path[0] != '/')
		return shim_fail(err, 0, "%s=%s: not an absolute path", what, path);
	if (strlen(path) >= PATH_MAX)
		return shim_fail(err, ENAMETOOLONG, "%s", what);
	while (*p) {
		size_t n;

		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return shim_fail(err, 0, "%s=%s: \".\" and \"..\" are not allowed", what, path);
		p += n;
	}
	if (strspn(path, "/") == strlen(path))
		return shim_fail(err, 0, "%s=%s: not a directory below the container's root",
				 what, path);
	return 0;
}

int shim_bpffs_request(int sock, int root_fd, const char *path, struct shim_err *err)
{
	cleanup_fd int fsfd = -1, mfd = -1, target = -1;
	struct shim_msg msg;
	int r;

	fsfd = sys_fsopen("bpf", SHIM_FSOPEN_CLOEXEC);
	if (fsfd < 0)
		return shim_fail(err, errno, "fsopen bpf in the container's user namespace");
	if (shim_msg_send(sock, SHIM_MSG_BPF_FD, 0, NULL, fsfd, err))
		return -1;
	r = shim_msg_recv(sock, &msg, &mfd, err);
	if (r < 0)
		return -1;
	if (r == 0 || msg.type != SHIM_MSG_BPF_ACK)
		return shim_fail(err, EPROTO, "waiting for the BPF FS");
	if (msg.errnum)
		return shim_fail(err, 0, "the privileged side did not create the BPF FS");
	if (mfd < 0)
		return shim_fail(err, EPROTO, "the BPF FS mount is missing");
	target = shim_walk_in_root(root_fd, path, SHIM_WALK_MKDIR, err);
	if (target < 0)
		return -1;
	if (sys_move_mount(mfd, "", target, "",
			   SHIM_MOVE_MOUNT_F_EMPTY_PATH | SHIM_MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return shim_fail(err, errno, "move_mount the BPF FS onto %s", path);
	return 0;
}
