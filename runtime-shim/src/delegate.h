/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * BPF FS delegation values: the parsing of --bpf-delegate-* values (and
 * of the annotations and the policy, in the same syntax) against the
 * kernel's names (names.h), and the formatting of masks the way
 * /proc/mounts shows them.
 */
#ifndef SHIM_DELEGATE_H
#define SHIM_DELEGATE_H

#include "names.h"

/*
 * Syntax only (elements not empty), no name lookup: each parser of a
 * value (the command line, the annotations, the policy) checks it once,
 * where the value comes in, before anything else is looked at.  what
 * names the value in messages ("--bpf-delegate-cmds", an annotation
 * key); NULL: the option's name.
 */
int shim_delegate_syntax_check(int kind, const char *value, const char *what,
			       struct shim_err *err);
/*
 * Resolve a value ("a:b,c", "any", numbers) against the table like the
 * kernel does: names OR into the mask, a number replaces it, any sets all
 * bits.  normalized gets the ':' separated form passed to fsconfig.
 * what names the value in messages, as for shim_delegate_syntax_check.
 * The value has passed that check: an empty element here is only an
 * unknown name.
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
