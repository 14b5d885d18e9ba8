/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim bpf-needs: the least BPF FS delegation (delegate_* options) and the
 * capabilities that loading some BPF objects with libbpf through a token
 * needs, derived from the objects without loading anything.
 */
#ifndef SHIM_NEEDS_H
#define SHIM_NEEDS_H

#include "delegate.h"

/* Capabilities the token checks (bpf_token_capable()), by number. */
#define SHIM_CAP_NET_ADMIN 12
#define SHIM_CAP_SYS_ADMIN 21
#define SHIM_CAP_PERFMON 38
#define SHIM_CAP_BPF 39

#define SHIM_NEEDS_WHY_LEN 128

struct shim_needs {
	uint64_t mask[SHIM_DELEG_NR];
	uint64_t caps;				/* bit per capability number */
	/* Why each bit is needed: the first object part that asked for it. */
	char why[SHIM_DELEG_NR][64][SHIM_NEEDS_WHY_LEN];
	char cap_why[64][SHIM_NEEDS_WHY_LEN];
	/* What libbpf cannot tell from the objects, one line each. */
	char unknown[4096];
	bool incomplete;
};

enum shim_needs_format {
	SHIM_NEEDS_SHIM,	/* shim run options */
	SHIM_NEEDS_OCI,		/* annotations for shim hook bpffs */
	SHIM_NEEDS_POLICY,	/* lines of the hook's host policy */
	SHIM_NEEDS_SYSTEMD,	/* unit settings (systemd 258+) */
	SHIM_NEEDS_INCUS,	/* incus config set keys */
	SHIM_NEEDS_LXD,		/* lxc config set keys */
	SHIM_NEEDS_FORMAT_NR,
};

/* "shim", "oci", ...; -1 when name is none of them. */
int shim_needs_format_from_name(const char *name);
const char *shim_needs_format_name(int format);

/*
 * Check that path is a whole 64-bit BPF ELF object before libbpf sees it,
 * so that bad input gets a precise message: not an ELF file, not BPF,
 * truncated.  0, or -1 with err set.
 */
int shim_needs_check_elf(const void *data, size_t size, struct shim_err *err);

/*
 * The shim's own reading of an object's bytes, before and beside
 * libbpf's: shim_needs_check_elf, then the helper calls of its .text
 * subprograms added to needs (obj names it).  0, or -1 with err set.
 */
int shim_needs_scan_elf(const void *data, size_t size, struct shim_needs *needs,
			const char *obj, struct shim_err *err);

/* Add what loading the object at path needs.  0, or -1 with err set. */
int shim_needs_add_object(const char *path, struct shim_needs *needs,
			  struct shim_err *err);

/*
 * Print the needs in a consumer's syntax, names from names.  A bit without
 * a name there makes the answer incomplete (it goes to needs->unknown).
 */
int shim_needs_print(FILE *out, struct shim_needs *needs, int format,
		     const struct shim_deleg_names *names, struct shim_err *err);

/* "CAP_BPF CAP_PERFMON": the capability bits, CAP_BPF first. */
void shim_needs_caps_string(uint64_t caps, char *buf, size_t len);

/*
 * The capabilities a delegation's program and map types take, by the
 * rules above (CAP_BPF always); CAP_SYS_ADMIN is never among them, since
 * the token lets each of the others stand alone.
 */
uint64_t shim_needs_caps_of_masks(const uint64_t mask[SHIM_DELEG_NR]);

/* shim bpf-needs [--format F] [--verbose] OBJ...: the subcommand. */
int shim_bpf_needs_main(int argc, char *const argv[]);

#endif
