/* SPDX-License-Identifier: GPL-2.0-or-later */
/* BPF FS delegation: probing, the privileged fsconfig side, the mount. */
#ifndef SHIM_BPFFS_H
#define SHIM_BPFFS_H

#include "delegate.h"
#include "kernel.h"

#define SHIM_NO_BPF_TOKEN_MSG \
	"this kernel cannot delegate BPF (needs Linux 6.9+ or this project's kernel series)"

/*
 * Does the kernel support BPF tokens?  0 with the answer in *supported,
 * or -1 when it cannot tell because the caller may not create a BPF FS
 * (fsopen: EPERM).  why records what was probed and what came back,
 * whatever the answer.  Needs init-userns CAP_SYS_ADMIN for a yes.
 */
int shim_bpf_token_probe(bool *supported, struct shim_err *why);
/*
 * The probe for shim run: 0 when delegation can work, else -1 with err
 * saying why: SHIM_NO_BPF_TOKEN_MSG for the kernel, or what failed and
 * what to do for a missing privilege.  why gets the probe's detail.
 */
int shim_bpf_token_require(const struct shim_config *cfg, struct shim_err *why,
			   struct shim_err *err);

/*
 * The kernel's names of the delegate_* values, from its BTF; when that
 * cannot be read, the built-in table, and a warning that says so.
 */
void shim_delegation_names(struct shim_deleg_names *names, const struct shim_voice *v);

/*
 * A delegation: per delegate_* option, the value passed to fsconfig and
 * the mask it grants.  The one form of a request, whether it comes from
 * shim run's options or the hook's annotations, and of the host policy
 * that bounds the hook (policy.h).
 */
struct shim_delegation {
	bool set[SHIM_DELEG_NR];
	char value[SHIM_DELEG_NR][1024];
	uint64_t mask[SHIM_DELEG_NR];
};

/*
 * Resolve one option's value against the kernel's names into d (see
 * shim_delegate_resolve); what names it in messages: the option, the
 * annotation key, NULL for the mount option's own name.
 */
int shim_delegation_set(struct shim_delegation *d, const struct shim_deleg_names *names,
			int kind, const char *value, const char *what, struct shim_err *err);

/*
 * Every delegated BPF FS is mounted with these, whoever asked for it: no
 * file on it is a program, a device or set-uid.
 */
#define SHIM_BPFFS_MOUNT_ATTRS \
	(SHIM_MOUNT_ATTR_NOSUID | SHIM_MOUNT_ATTR_NODEV | SHIM_MOUNT_ATTR_NOEXEC)

/*
 * A delegated BPF FS is made in two halves that talk over a setup socket
 * (sync.h), the same for shim run's container and the hook's helper:
 *
 * shim_bpffs_request, on the container's side (in its user and mount
 * namespaces, as its root): opens a BPF FS context, so that the instance
 * belongs to the container's user namespace, and sends it
 * (SHIM_MSG_BPF_FD); then attaches the mount it gets back at path below
 * root_fd (walk.h: resolved inside the root, missing directories made).
 * Returns 0, or -1 with err (when the privileged side refused, it is the
 * one that says why).
 *
 * shim_bpffs_grant, on the privileged side (CAP_SYS_ADMIN in the initial
 * user namespace), with the context received: sets d's options, creates
 * the superblock, mounts it with SHIM_BPFFS_MOUNT_ATTRS and sends the
 * mount back (SHIM_MSG_BPF_ACK).  On failure the container's side is
 * told to give up, and err says why.
 */
/*
 * Where a BPF FS may be mounted in a container: an absolute path without
 * "." or ".." components, below "/".  what names it in messages.
 */
int shim_bpffs_path_check(const char *path, const char *what, struct shim_err *err);

int shim_bpffs_request(int sock, int root_fd, const char *path, struct shim_err *err);
int shim_bpffs_grant(int sock, int fsfd, const struct shim_delegation *d,
		     struct shim_err *err);

#endif
