/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The running kernel's names of the delegation enums, read from its BTF. */
#ifndef SHIM_BTF_H
#define SHIM_BTF_H

#include "names.h"

/* Parse a raw BTF blob (the format of /sys/kernel/btf/vmlinux). */
int shim_btf_parse_enums(const void *data, size_t size,
			 struct shim_deleg_names *names, struct shim_err *err);
/* Load the names from BTF at path; on failure fill the built-in table and
 * set names->builtin, recording why in names->source.  Never fails. */
void shim_deleg_names_load(const char *path, struct shim_deleg_names *names);

#endif
