/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * BPF FS delegation names: the four enums (bpf_cmd, bpf_map_type,
 * bpf_prog_type, bpf_attach_type) as the running kernel names them in its
 * BTF, the parsing of --bpf-delegate-* values and the formatting of masks
 * the way /proc/mounts shows them.
 */
#ifndef SHIM_DELEGATE_H
#define SHIM_DELEGATE_H

#include "shim.h"

struct shim_enum_entry {
	char name[64];		/* lower case, without prefix */
	uint32_t value;
};

struct shim_enum_table {
	struct shim_enum_entry *entry;
	size_t n;
};

struct shim_deleg_names {
	struct shim_enum_table table[SHIM_DELEG_NR];
	bool builtin;		/* true: the built-in table, not the kernel's BTF */
	char source[512];	/* where the names came from, for messages */
};

/* "delegate_cmds", ... */
const char *shim_deleg_option(int kind);
/* "--bpf-delegate-cmds", ...: the shim's option, for messages */
const char *shim_deleg_flag(int kind);
/* "command", "map type", "program type", "attach type" */
const char *shim_deleg_what(int kind);
/* "bpf_cmd", ... and the prefix stripped from member names */
const char *shim_deleg_enum(int kind);
const char *shim_deleg_prefix(int kind);

/* Parse a raw BTF blob (the format of /sys/kernel/btf/vmlinux). */
int shim_btf_parse_enums(const void *data, size_t size,
			 struct shim_deleg_names *names, struct shim_err *err);
/* Load the names from BTF at path; on failure fill the built-in table and
 * set names->builtin, recording why in names->source.  Never fails. */
void shim_deleg_names_load(const char *path, struct shim_deleg_names *names);
void shim_deleg_names_builtin(struct shim_deleg_names *names);
void shim_deleg_names_free(struct shim_deleg_names *names);

/*
 * Syntax only (elements not empty), no name lookup: for the parsers of
 * the command line and the annotations, which refuse a malformed value
 * before anything else is looked at.  what names the value in messages
 * ("--bpf-delegate-cmds", an annotation key); NULL: the option's name.
 */
int shim_delegate_syntax_check(int kind, const char *value, const char *what,
			       struct shim_err *err);
/*
 * Resolve a value ("a:b,c", "any", numbers) against the table like the
 * kernel does: names OR into the mask, a number replaces it, any sets all
 * bits.  normalized gets the ':' separated form passed to fsconfig.
 * what names the value in messages, as for shim_delegate_syntax_check.
 */
int shim_delegate_resolve(const struct shim_deleg_names *names, int kind,
			  const char *value, const char *what, uint64_t *mask,
			  char *normalized, size_t normalized_len, struct shim_err *err);
/* Format like /proc/mounts: "any", names joined by ':', then hex. */
int shim_delegate_format(const struct shim_deleg_names *names, int kind,
			 uint64_t mask, char *buf, size_t len);
/* "a, b, c" list of valid names. */
int shim_delegate_valid_list(const struct shim_deleg_names *names, int kind,
			     char *buf, size_t len);

#endif
