/* SPDX-License-Identifier: GPL-2.0-or-later */
/* BPF FS delegation: probing, the privileged fsconfig side, the mount. */
#ifndef SHIM_BPFFS_H
#define SHIM_BPFFS_H

#include "delegate.h"

#define SHIM_NO_BPF_TOKEN_MSG \
	"this kernel cannot delegate BPF (needs Linux 6.9+ or this project's kernel series)"

/*
 * Does the kernel support BPF tokens?  Returns 1 yes, 0 no, -1 cannot
 * tell because the caller may not create a BPF FS (fsopen: EPERM); why
 * records what was probed and what came back, whatever the answer.
 * Needs init-userns CAP_SYS_ADMIN for a yes.
 */
int shim_bpf_token_probe(struct shim_err *why);
/*
 * The probe for shim run: 0 when delegation can work, else -1 with err
 * saying why: SHIM_NO_BPF_TOKEN_MSG for the kernel, or what failed and
 * what to do for a missing privilege.  why gets the probe's detail.
 */
int shim_bpf_token_require(const struct shim_config *cfg, struct shim_err *why,
			   struct shim_err *err);

/* The resolved delegation: per option the value passed to fsconfig. */
struct shim_delegation {
	bool set[SHIM_DELEG_NR];
	char value[SHIM_DELEG_NR][1024];
	uint64_t mask[SHIM_DELEG_NR];
};

/* Check every --bpf-delegate-* value against the kernel's names. */
int shim_delegation_resolve(const struct shim_config *cfg,
			    const struct shim_deleg_names *names,
			    struct shim_delegation *out, struct shim_err *err);

/* Privileged side: set the delegate_* options on fsfd and create. */
int shim_bpffs_configure(int fsfd, const struct shim_delegation *d,
			 struct shim_err *err);

/*
 * Container side: mount a configured fs context at path, below root_fd
 * (path resolved as if root_fd were "/"; missing directories created).
 * shim_bpffs_mount: the same below the caller's "/".
 */
int shim_bpffs_mount_at(int fsfd, int root_fd, const char *path,
			struct shim_err *err);
int shim_bpffs_mount(int fsfd, const char *path, struct shim_err *err);

#endif
