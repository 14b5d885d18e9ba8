/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim hook bpffs: an OCI createRuntime hook that gives a runc, crun or
 * podman container a BPF FS delegated to its user namespace, as shim run
 * does for its own containers.  The request is a set of annotations, the
 * bound is the host policy (policy.h).
 */
#ifndef SHIM_HOOK_H
#define SHIM_HOOK_H

#include "oci.h"
#include "policy.h"

/*
 * Annotation keys: this prefix and an option name ("delegate_cmds",
 * "delegate_maps", "delegate_progs", "delegate_attachs", "path").  The
 * prefix is reverse-domain style under the reserved ".invalid" top-level
 * domain, so it names no real host and cannot clash with a real owner's.
 */
#define SHIM_HOOK_PREFIX "invalid.shim.bpffs."
#define SHIM_HOOK_DEFAULT_PATH "/sys/fs/bpf"
/* The prefix of every line the hook prints. */
#define SHIM_HOOK_WHO "shim hook bpffs"

struct shim_hook_request {
	const char *delegate[SHIM_DELEG_NR];	/* point into the annotations */
	const char *path;
	bool any;				/* some annotation under the prefix */
};

/* "invalid.shim.bpffs.delegate_cmds", ... */
const char *shim_hook_annotation(int kind);

/*
 * The request in a set of annotations: unknown keys under the prefix, a
 * bad path or value syntax are refused.  req->any false: not asked for.
 */
int shim_hook_request_parse(const struct shim_oci_annotations *a,
			    struct shim_hook_request *req, struct shim_err *err);

/* shim hook ARGS... (argv[0] is "hook").  Returns the exit status. */
int shim_hook_main(int argc, char *const argv[]);

#endif
