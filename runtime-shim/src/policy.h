/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host's BPF FS delegation policy for the OCI hook: the most each
 * delegate_* option may grant a container.  Annotations are chosen by
 * whoever starts the container; the policy is chosen by the host's root.
 *
 * File format (default /etc/shim/bpffs-policy.conf), one option a line,
 * '#' starts a comment:
 *	delegate_cmds = map_create:prog_load:btf_load
 *	delegate_progs = socket_filter
 * Values use the kernel's (and --bpf-delegate-*'s) syntax.  An option
 * the file does not name may not be delegated at all.
 */
#ifndef SHIM_POLICY_H
#define SHIM_POLICY_H

#include <limits.h>

#include "bpffs.h"

#define SHIM_POLICY_DEFAULT "/etc/shim/bpffs-policy.conf"

/* The most the hook may grant: a delegation, and the file it came from. */
struct shim_bpffs_policy {
	char source[PATH_MAX];
	struct shim_delegation allow;
};

/* Parse policy text; source names it in messages. */
int shim_policy_parse(const char *text, const char *source,
		      const struct shim_deleg_names *names,
		      struct shim_bpffs_policy *p, struct shim_err *err);
/* Read and parse the policy file at path.  A missing file is an error. */
int shim_policy_load(const char *path, const struct shim_deleg_names *names,
		     struct shim_bpffs_policy *p, struct shim_err *err);
/*
 * Is the request within the policy?  0, or -1 with err naming the option,
 * what the policy allows and the bits beyond it.  what(k) names the
 * request's option k in the message (the annotation key).
 */
int shim_policy_check(const struct shim_bpffs_policy *p,
		      const struct shim_deleg_names *names,
		      const struct shim_delegation *req,
		      const char *(*what)(int kind), struct shim_err *err);

#endif
