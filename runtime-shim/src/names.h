/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The four enums whose members BPF FS delegation takes (bpf_cmd,
 * bpf_map_type, bpf_prog_type, bpf_attach_type) as a table of names, and
 * the names of the options that take them.
 */
#ifndef SHIM_NAMES_H
#define SHIM_NAMES_H

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

void shim_deleg_names_builtin(struct shim_deleg_names *names);
void shim_deleg_names_free(struct shim_deleg_names *names);

#endif
