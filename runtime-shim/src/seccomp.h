/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SHIM_SECCOMP_H
#define SHIM_SECCOMP_H

#include <linux/filter.h>
#include <seccomp.h>

#include "shim.h"

/*
 * The default profile as a libseccomp filter; allow_bpf when BPF is
 * delegated.  seccomp-gen makes the shim's built-in programs from it at
 * build time (seccomp_prog.h); shim run does not call it.
 */
int shim_seccomp_default(bool allow_bpf, scmp_filter_ctx *out,
			 struct shim_err *err);
/*
 * The default profile as an OCI seccomp JSON (runc, crun; podman's
 * --security-opt seccomp=FILE), built from the same rules; allow_bpf as
 * above.  For `shim seccomp-profile [--bpf]` and runtime-shim/oci/.
 */
int shim_seccomp_print_oci(FILE *out, bool allow_bpf, struct shim_err *err);
/* "shim seccomp-profile [--bpf]": argv[0] is "seccomp-profile". */
int shim_seccomp_profile_main(int argc, char *const argv[]);
/* A profile from FILE's text (see shim --help); name is for messages. */
int shim_seccomp_from_text(const char *text, const char *name,
			   scmp_filter_ctx *out, struct shim_err *err);
/* Parse an action word: allow, kill, trap, log, errno, errno:N, errno:ENAME. */
int shim_seccomp_parse_action(const char *word, uint32_t *action);
/*
 * The BPF program libseccomp generates for ctx, as seccomp_load would
 * load it: *insns (freed by the caller) holds *n instructions.
 */
int shim_seccomp_export_bpf(scmp_filter_ctx ctx, struct sock_filter **insns, size_t *n,
			    struct shim_err *err);

static inline void shim_seccomp_releasep(scmp_filter_ctx *ctx)
{
	if (*ctx)
		seccomp_release(*ctx);
	*ctx = NULL;
}
#define cleanup_seccomp __attribute__((cleanup(shim_seccomp_releasep)))

#endif
